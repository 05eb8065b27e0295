import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { restoreWindowWidth, setWindowWidth } from '../../test/window-width.ts';
import {
  CATALOGUE,
  choose,
  confirmButton,
  device,
  dialogButton,
  expectRefusal,
  formErrors,
  lastForm,
  lastJson,
  lastQuery,
  page,
  requestsTo,
  signInAs,
  installFakeApi,
  providerRow,
} from './test-server.ts';

const api = installFakeApi();

import { DeviceList } from './DeviceList.tsx';

// A full device table with dialogs renders slowly in jsdom on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const LIST = '/device/getDeviceList';
const online = device();
const offline = device({
  id: 2,
  deviceId: 'SLP-1002',
  online: false,
  bunkId: null,
  bunkName: null,
  roomName: null,
  floorName: null,
  areaName: null,
  userId: null,
  userName: null,
  installed: false,
  installState: 'none',
});

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  api.requests.length = 0;
  api.routes.clear();
  api.routes.set(LIST, () => ({ data: page([online, offline], 25) }));
  api.routes.set('/device/deviceTypes', () => ({ data: CATALOGUE }));
  api.routes.set('/device/getDeviceSummary', () => ({
    data: {
      total: 9,
      online: 4,
      offline: 5,
      groups: [
        { kind: 'sleep', total: 6, online: 3, offline: 3 },
        { kind: 'security', total: 3, online: 1, offline: 2 },
      ],
    },
  }));
  api.routes.set('/provider/queryProviderList', () => ({
    data: page([providerRow({ id: 7, name: 'Sunrise Care' }), providerRow({ id: 8, name: 'Harbour Home' })]),
  }));
});
afterEach(() => sessionStore.reset());

const show = async (group: 'sleep' | 'security' = 'sleep') => {
  render(inTestShell(i18n, <DeviceList group={group} />));
  await screen.findByText('SLP-1001');
};
const rowOf = (deviceId: string) => screen.getByText(deviceId).closest('tr') as HTMLElement;
const openMore = async (deviceId: string, item: string) => {
  fireEvent.click(screen.getByTestId(`device-more-${deviceId}`));
  const entry = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-dropdown-menu-item')].find((e) =>
      e.textContent?.startsWith(item),
    );
    if (!found) throw new Error(`no menu item ${item}`);
    return found;
  });
  fireEvent.click(entry);
};

describe('DeviceList on a phone', () => {
  afterEach(restoreWindowWidth);

  it('shows each device as a card: its ID and state, its type, its bed and resident, how it connects', async () => {
    setWindowWidth(390);
    await show();
    const card = screen.getByText('SLP-1001').closest('[data-testid="list-card"]') as HTMLElement;
    const tags = within(card.querySelector('[data-card="state"]') as HTMLElement)
      .getAllByTestId(/^device-(online|install|pair|sensor)$/)
      .map((tag) => tag.textContent);
    expect(tags.slice(0, 2)).toEqual(['Online', 'Installed at its bed']);
    const line = (field: string) => card.querySelector(`[data-field="${field}"]`);
    expect(line('model')).toHaveTextContent('Device type');
    expect(line('model')).toHaveTextContent('Sleep monitor');
    expect(line('place')).toHaveTextContent('Building A / Floor 1 / 101 / 1');
    expect(line('place')).toHaveTextContent('Resident: Li Wei');
    expect(line('connection')).toHaveTextContent(/Last seen /);
    expect(line('signal')).toHaveTextContent('Signal (dBm)');
    expect(line('battery')).toHaveTextContent('Battery (%)');
    expect(document.querySelector('table')).toBeNull();
    const offlineCard = screen.getByText('SLP-1002').closest('[data-testid="list-card"]') as HTMLElement;
    expect(within(offlineCard).getByTestId('device-online')).toHaveTextContent('Offline');
    expect(within(offlineCard).getByTestId('device-install')).toHaveTextContent('Not installed');
  });
});

describe('DeviceList: list, counts, filters', () => {
  it('asks for the page group and shows its counts', async () => {
    await show();
    expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, kind: 'sleep' });
    await waitFor(() => expect(within(screen.getByTestId('device-summary')).getByText('6')).toBeInTheDocument());
    expect(screen.getByText('Building A / Floor 1 / 101 / 1')).toBeInTheDocument();
    expect(screen.getByText('Resident: Li Wei')).toBeInTheDocument();
  });

  it('sends keyword, online state and type with the group, going back to page 1 each time', async () => {
    await show();
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastJson(api, LIST)).toMatchObject({ pageNum: 2 }));

    const search = screen.getByPlaceholderText('Device ID, name, bed or resident');
    fireEvent.change(search, { target: { value: '  pad ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, kind: 'sleep', keyWord: 'pad' }),
    );

    await choose('device-filter-online', 'Offline');
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, kind: 'sleep', keyWord: 'pad', online: false }),
    );
    fireEvent.click(await screen.findByTitle('3'));
    await waitFor(() => expect(lastJson(api, LIST)).toMatchObject({ pageNum: 3 }));
    await choose('device-filter-type', 'M8701W · Sleep monitor');
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({
        pageNum: 1,
        pageSize: 10,
        kind: 'sleep',
        keyWord: 'pad',
        online: false,
        deviceType: 52,
      }),
    );
  });

  it('offers only the types of the page group', async () => {
    await show('security');
    fireEvent.mouseDown(screen.getByTestId('device-filter-type'));
    await screen.findByText('SOS-N03 · Emergency call button');
    expect(screen.queryByText('M8701W · Sleep monitor')).not.toBeInTheDocument();
  });

  it('lets platform administrators filter by provider (counts follow) and others not', async () => {
    signInAs('SENIOR_ROLE');
    await show();
    await choose('device-filter-provider', 'Harbour Home');
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, kind: 'sleep', providerId: 8 }),
    );
    await waitFor(() => expect(lastQuery(api, '/device/getDeviceSummary')).toEqual({ providerId: '8' }));
    expect(screen.getAllByText('Sunrise Care').length).toBeGreaterThan(0);
  });

  it('shows no provider filter or column to a provider account', async () => {
    signInAs('ONE_ROLE');
    await show();
    expect(screen.queryByTestId('device-filter-provider')).not.toBeInTheDocument();
    expect(screen.queryByText('Sunrise Care')).not.toBeInTheDocument();
  });
});

describe('DeviceList: registering and editing', () => {
  it('checks the device ID format before sending', async () => {
    await show();
    fireEvent.click(screen.getByTestId('device-register'));
    const form = await screen.findByTestId('device-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'SLP 10/1' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(formErrors()).toEqual(['Digits, letters and - only, at most 64 characters', 'Required']),
    );
    expect(requestsTo(api, '/device/insertDevice')).toHaveLength(0);
  });

  it('sends the registration and shows a registry refusal under the device ID, keeping what was typed', async () => {
    api.routes.set('/device/insertDevice', () => ({
      status: 300,
      msgKey: 'device.notRegistered',
      field: 'deviceId',
      msg: 'This device ID is not registered on the platform.',
    }));
    await show();
    fireEvent.click(screen.getByTestId('device-register'));
    const form = await screen.findByTestId('device-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: ' slp-2002 ' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'M8701W · Sleep monitor',
    );
    fireEvent.change(within(form).getByLabelText('Device name'), { target: { value: 'Room 102' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['This device ID is not registered on the platform.']));
    expect(lastJson(api, '/device/insertDevice')).toEqual({ deviceId: 'slp-2002', deviceType: 52, name: 'Room 102' });
    expect(within(form).getByLabelText('Device name')).toHaveValue('Room 102');
  });

  it('puts a type mismatch under the type', async () => {
    api.routes.set('/device/insertDevice', () => ({
      status: 300,
      msgKey: 'device.typeMismatch',
      field: 'deviceType',
      msg: 'The device ID does not match the device type.',
    }));
    await show();
    fireEvent.click(screen.getByTestId('device-register'));
    const form = await screen.findByTestId('device-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'SLP-2002' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'BM8701-2 · Sleep monitor',
    );
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['The device ID does not match the device type.']));
    const typeItem = within(form).getByLabelText('Device type').closest('.ant-form-item') as HTMLElement;
    expect(typeItem).toHaveClass('ant-form-item-has-error');
  });

  it('makes a platform administrator pick the provider the device goes to', async () => {
    signInAs('SUPER_ROLE');
    await show();
    fireEvent.click(screen.getByTestId('device-register'));
    const form = await screen.findByTestId('device-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'SLP-2002' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'M8701W · Sleep monitor',
    );
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['Required']));
    await choose(within(form).getByLabelText('Provider').closest('.ant-select') as HTMLElement, 'Harbour Home');
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastJson(api, '/device/insertDevice')).toEqual({ deviceId: 'SLP-2002', deviceType: 52, providerId: 8 }),
    );
  });

  it('edits name, communication mode and remark', async () => {
    await show();
    fireEvent.click(within(rowOf('SLP-1001')).getByText('Edit'));
    const form = await screen.findByTestId('device-form');
    expect(within(form).getByLabelText('Device ID')).toBeDisabled();
    fireEvent.change(within(form).getByLabelText('Device name'), { target: { value: ' Window bed ' } });
    fireEvent.change(within(form).getByLabelText('Remark'), { target: { value: 'moved' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastJson(api, '/device/updateDevice')).toEqual({
        deviceId: 'SLP-1001',
        name: 'Window bed',
        commMode: 'wifi',
        remark: 'moved',
      }),
    );
  });
});

describe('DeviceList: commands', () => {
  it('reboots an online device after a confirmation, and not an offline one', async () => {
    await show();
    const offlineReboot = within(rowOf('SLP-1002')).getByText('Reboot').closest('button') as HTMLElement;
    expect(offlineReboot).toBeDisabled();
    await expectRefusal(offlineReboot, 'Only online devices can be rebooted; this one is offline.');
    fireEvent.click(within(rowOf('SLP-1001')).getByText('Reboot'));
    expect(await screen.findByText('Reboot SLP-1001? Monitoring pauses while it restarts.')).toBeInTheDocument();
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() => expect(lastJson(api, '/deviceManage/restartDevice')).toEqual({ deviceId: 'SLP-1001' }));
    expect(await screen.findByText('Queued for SLP-1001.')).toBeInTheDocument();
  });

  it('shows the server refusal of a command', async () => {
    api.routes.set('/deviceManage/restartDevice', () => ({
      status: 300,
      msgKey: 'device.restartOffline',
      msg: 'Restart can only be sent to online devices.',
    }));
    await show();
    fireEvent.click(within(rowOf('SLP-1001')).getByText('Reboot'));
    fireEvent.click(await confirmButton('OK'));
    expect(await screen.findByText('Restart can only be sent to online devices.')).toBeInTheDocument();
  });

  it('refuses a reporting interval outside 1 to 254 and sends a valid one', async () => {
    await show();
    await openMore('SLP-1001', 'Reporting interval');
    const form = await screen.findByTestId('interval-form');
    const input = within(form).getByLabelText('Reporting interval');
    fireEvent.change(input, { target: { value: '300' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['A whole number of seconds from 1 to 254']));
    expect(requestsTo(api, '/device/updateInterval')).toHaveLength(0);
    fireEvent.change(input, { target: { value: '60' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastQuery(api, '/device/updateInterval')).toEqual({ deviceId: 'SLP-1001', interval: '60' }),
    );
  });

  it('queues an algorithm mode as a form', async () => {
    await show();
    await openMore('SLP-1001', 'Algorithm mode');
    const form = await screen.findByTestId('alg-mode-form');
    fireEvent.change(within(form).getByLabelText('Algorithm mode code'), { target: { value: '3' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(lastForm(api, '/device/updateAlgMode')).toEqual({ deviceId: 'SLP-1001', algMode: '3' }));
  });

  it('initialises a sensor only once the empty bed is confirmed', async () => {
    await show();
    await openMore('SLP-1001', 'Initialise sensor');
    expect(await screen.findByText('Bed: Building A / Floor 1 / 101 / 1')).toBeInTheDocument();
    const ok = await dialogButton('Initialise');
    await expectRefusal(ok, 'First confirm that nobody is on the bed.');
    fireEvent.click(screen.getByText('I have checked: nobody is on the bed'));
    await waitFor(() => expect(ok).toBeEnabled());
    fireEvent.click(ok);
    await waitFor(() =>
      expect(lastForm(api, '/device/forceInitSensor')).toEqual({ deviceId: 'SLP-1001', emptyBed: 'true' }),
    );
  });

  it('does not offer sensor initialisation or deletion of a device whose state forbids it, and says why', async () => {
    await show();
    fireEvent.click(screen.getByTestId('device-more-SLP-1002'));
    const init = await waitFor(() => {
      const item = [...document.querySelectorAll('.ant-dropdown-menu-item')].find((e) =>
        e.textContent?.startsWith('Initialise sensor'),
      );
      if (!item) throw new Error('menu not open');
      return item;
    });
    expect(init).toHaveClass('ant-dropdown-menu-item-disabled');
    await expectRefusal(
      init as HTMLElement,
      'Link the sensor to a bed first: an installed sensor is initialised on its bed.',
    );
    fireEvent.click(screen.getByTestId('device-more-SLP-1001'));
    const linkedDelete = await waitFor(() => {
      const item = [...document.querySelectorAll<HTMLElement>('.ant-dropdown-menu-item-disabled')].find(
        (e) => e.textContent === 'Delete',
      );
      if (!item) throw new Error('no disabled delete');
      return item;
    });
    await expectRefusal(
      linkedDelete,
      'Linked to bed Building A / Floor 1 / 101 / 1: unlink it in bed management before deleting it.',
    );
  });

  it('deletes a device after a confirmation', async () => {
    await show();
    await openMore('SLP-1002', 'Delete');
    expect(
      await screen.findByText('Delete SLP-1002? It returns to stock and its queued commands are cancelled.'),
    ).toBeInTheDocument();
    api.routes.set('/device/deleteDevice', () => ({ data: { telecom: 'not_registered', telecomMsg: null } }));
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() => expect(lastQuery(api, '/device/deleteDevice')).toEqual({ deviceId: 'SLP-1002' }));
    expect(await screen.findByText('SLP-1002 deleted; it is back in stock.')).toBeInTheDocument();
  });

  it('switches the raw data upload for device administrators only', async () => {
    signInAs('SENIOR_ROLE');
    await show();
    fireEvent.click(screen.getByTestId('upload-SLP-1001'));
    await waitFor(() =>
      expect(lastJson(api, '/device/isUploadData')).toEqual({ deviceId: 'SLP-1001', uploadData: true }),
    );
  });

  it('hides the raw data upload switch from provider accounts', async () => {
    signInAs('TWO_ROLE');
    await show();
    expect(screen.queryByTestId('upload-SLP-1001')).not.toBeInTheDocument();
  });
});

describe('DeviceList: operator platform and spreadsheets', () => {
  it('syncs one device and shows its operator status', async () => {
    api.routes.set('/device/syncThirdDevice', () => ({
      data: {
        deviceId: 'SLP-1001',
        thirdPartyId: 'T1',
        thirdPartyStatus: 'online',
        thirdPartySyncTime: '2026-01-01T00:00:00Z',
      },
    }));
    await show();
    await openMore('SLP-1001', 'Sync with operator platform');
    await waitFor(() => expect(lastJson(api, '/device/syncThirdDevice')).toEqual({ deviceId: 'SLP-1001' }));
    expect(await screen.findByText('SLP-1001 synced with the operator platform: online.')).toBeInTheDocument();
  });

  it('syncs every device after a confirmation and lists the failures', async () => {
    api.routes.set('/device/syncAllThirdDevice', () => ({
      data: {
        total: 3,
        synced: 2,
        failed: [
          {
            deviceId: 'SLP-3001',
            msgKey: 'telecom.rejected',
            msg: 'The telecom platform refused the request: blocked',
          },
        ],
      },
    }));
    await show();
    fireEvent.click(screen.getByTestId('sync-all'));
    fireEvent.click(await confirmButton('OK'));
    expect(await screen.findByText('2 of 3 devices synced.')).toBeInTheDocument();
    expect(screen.getByText('The telecom platform refused the request: blocked')).toBeInTheDocument();
    expect(lastQuery(api, '/device/syncAllThirdDevice')).toEqual({});
  });

  it('exports with the current filters and without paging', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:devices');
    URL.revokeObjectURL = vi.fn();
    api.routes.set('/device/exportData', () => ({ data: null }));
    await show();
    await choose('device-filter-online', 'Online');
    await waitFor(() => expect(lastJson(api, LIST)).toMatchObject({ online: true }));
    fireEvent.click(screen.getByTestId('export'));
    await waitFor(() => expect(requestsTo(api, '/device/exportData')).toHaveLength(1));
    expect(lastJson(api, '/device/exportData')).toEqual({ kind: 'sleep', online: true });
  });

  it('makes a platform administrator choose a provider before a batch import', async () => {
    signInAs('SUPER_ROLE');
    await show();
    expect(screen.getByTestId('device-import')).toBeDisabled();
    await choose('device-filter-provider', 'Sunrise Care');
    await waitFor(() => expect(screen.getByTestId('device-import')).toBeEnabled());
    fireEvent.click(screen.getByTestId('device-import'));
    expect(await screen.findByText('Import devices')).toBeInTheDocument();

    URL.createObjectURL = vi.fn(() => 'blob:template');
    URL.revokeObjectURL = vi.fn();
    fireEvent.click(screen.getByTestId('import-template'));
    await waitFor(() => expect(lastQuery(api, '/device/excelModel')).toEqual({ language: 'en-US' }));

    // The upload goes through XMLHttpRequest (for its progress); record what it sends.
    const sent: { url: string; body: FormData }[] = [];
    class RecordingXhr {
      upload = { onprogress: null };
      url = '';
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader() {}
      send(body: FormData) {
        sent.push({ url: this.url, body });
      }
    }
    vi.stubGlobal('XMLHttpRequest', RecordingXhr);
    const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'devices.xlsx')] } });
    fireEvent.click(await screen.findByTestId('import-start'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.url).toBe('/device/batchAdd1');
    expect(sent[0]?.body.get('providerId')).toBe('7');
    vi.unstubAllGlobals();
  });
});

describe('DeviceList: live state and command history', () => {
  it('refreshes online state, last seen, battery, signal and firmware every 10 seconds, keeping page and filters', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await show();
      await choose('device-filter-online', 'Online');
      fireEvent.click(await screen.findByTitle('2'));
      await waitFor(() =>
        expect(lastJson(api, LIST)).toEqual({ pageNum: 2, pageSize: 10, kind: 'sleep', online: true }),
      );
      const before = requestsTo(api, LIST).length;
      const summaries = requestsTo(api, '/device/getDeviceSummary').length;
      api.routes.set(LIST, () => ({
        data: page(
          [
            device({
              online: false,
              lastSeenTime: '2026-01-01T11:30:00.000Z',
              firmwareVersion: '2.5.0',
              signal: -75,
              firmwareUpgrade: { version: '2.6.0', state: 'downloading', progress: 40 },
            }),
          ],
          25,
        ),
      }));
      await vi.advanceTimersByTimeAsync(10_000);
      await waitFor(() => expect(requestsTo(api, LIST).length).toBeGreaterThan(before));
      expect(lastJson(api, LIST)).toEqual({ pageNum: 2, pageSize: 10, kind: 'sleep', online: true });
      expect(requestsTo(api, '/device/getDeviceSummary').length).toBeGreaterThan(summaries);
      await waitFor(() => expect(within(rowOf('SLP-1001')).getByText('Offline')).toBeInTheDocument());
      expect(within(rowOf('SLP-1001')).getByText('FW 2.5.0')).toBeInTheDocument();
      expect(within(rowOf('SLP-1001')).getByText('Downloading 2.6.0: 40%')).toBeInTheDocument();
      // Every signal of the page in dBm: the header says so, the cell is the number.
      expect(within(rowOf('SLP-1001')).getByText('-75')).toBeInTheDocument();
      expect(screen.getAllByRole('columnheader', { name: 'Signal (dBm)' }).length).toBeGreaterThan(0);
      expect(within(rowOf('SLP-1001')).getByText(/^Last seen /)).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows each device’s state as the server derives it: where it is installed, its sensor, units', async () => {
    api.routes.set(LIST, () => ({
      data: page([
        device({ sensorInitialised: true, sensorState: 'initialised', battery: 76 }),
        device({
          id: 3,
          deviceId: 'SLP-1003',
          bunkId: null,
          bunkName: null,
          roomName: null,
          floorName: null,
          areaName: null,
          userId: null,
          userName: null,
          installState: 'reporting',
          sensorInitialised: false,
          sensorState: 'initialising',
          signal: 68,
          signalUnit: 'percent',
        }),
        offline,
      ]),
    }));
    await show();
    const tags = (deviceId: string) =>
      within(rowOf(deviceId))
        .getAllByTestId(/^device-(online|install|pair|sensor)$/)
        .map((tag) => tag.textContent);
    // The battery's unit in its header, the bare figures in the cells. These signals are dBm and a
    // 0–100 level: no one unit for the header, each cell says its own.
    expect(screen.getAllByRole('columnheader', { name: 'Battery (%)' }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('columnheader', { name: 'Signal' }).length).toBeGreaterThan(0);
    // At its bed and measuring: installed there, sensor initialised; -61 dBm, battery 76 %.
    expect(tags('SLP-1001')).toEqual(['Online', 'Installed at its bed', 'Sensor initialised']);
    expect(within(rowOf('SLP-1001')).getByText('-61 dBm')).toBeInTheDocument();
    expect(within(rowOf('SLP-1001')).getByText('76')).toBeInTheDocument();
    // Streaming from a bed nobody linked: in use, no bed; a sensor initialisation under way; a level in per cent.
    expect(tags('SLP-1003')).toEqual(['Online', 'In use, no bed linked', 'Sensor initialising']);
    expect(within(rowOf('SLP-1003')).getByText('68%')).toBeInTheDocument();
    expect(tags('SLP-1002')).toEqual(['Offline', 'Not installed', 'Sensor not initialised']);
  });

  it('shows a queued pairing on a sub-device and its commands, those through its host included', async () => {
    const door = device({
      id: 5,
      deviceId: 'DR-0001',
      deviceType: 20993,
      model: 'SOS-N03',
      kind: 'emergency_button',
      group: 'security',
      hostDeviceId: 'GW-001',
      pendingCommands: ['pair'],
    });
    api.routes.set(LIST, () => ({ data: page([device(), door]) }));
    api.routes.set('/device/commandList', () => ({
      data: page([
        {
          id: 8,
          deviceId: 'GW-001',
          command: 'pair',
          params: { deviceId: 'DR-0001', deviceType: 20993 },
          state: 'sent',
          attempts: 2,
          error: null,
          createTime: '2026-01-01T10:00:00.000Z',
          sentTime: '2026-01-01T10:00:02.000Z',
          ackTime: null,
          updateTime: '2026-01-01T10:00:02.000Z',
        },
        {
          id: 7,
          deviceId: 'DR-0001',
          command: 'interval',
          params: { interval: 30 },
          state: 'expired',
          attempts: 0,
          error: null,
          createTime: '2025-12-30T10:00:00.000Z',
          sentTime: null,
          ackTime: null,
          updateTime: '2025-12-31T10:00:00.000Z',
        },
      ]),
    }));
    await show('security');
    expect(within(rowOf('DR-0001')).getByText('Queued: pairing')).toBeInTheDocument();
    await openMore('DR-0001', 'Commands');
    const table = await screen.findByTestId('command-table');
    await within(table).findByText('Pair sub-device');
    expect(lastQuery(api, '/device/commandList')).toEqual({ deviceId: 'DR-0001', pageNum: '1', pageSize: '10' });
    expect(screen.getByText('Commands of DR-0001')).toBeInTheDocument();
    expect(within(table).getByText('Through gateway host GW-001')).toBeInTheDocument();
    expect(within(table).getByText('Sent')).toBeInTheDocument();
    expect(within(table).getByText('Expired')).toBeInTheDocument();
    expect(within(table).getByText('30 s')).toBeInTheDocument();
  });
});
