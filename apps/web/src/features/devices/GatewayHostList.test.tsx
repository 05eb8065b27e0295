import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { restoreWindowWidth, setWindowWidth } from '../../test/window-width.ts';
import type {
  CommandHistoryRow,
  CommandState,
  GatewayHostRow,
  PairingReceipt,
  PairingStatus,
  SubDeviceRow,
} from './device-model.ts';
import {
  CATALOGUE,
  choose,
  confirmButton,
  expectRefusal,
  device,
  dialogButton,
  formErrors,
  lastForm,
  lastJson,
  lastQuery,
  lastTo,
  page,
  requestsTo,
  signInAs,
  installFakeApi,
  providerRow,
} from './test-server.ts';

const api = installFakeApi();

import GatewayHostPage from './GatewayHostPage.tsx';

vi.setConfig({ testTimeout: 120_000 });

const LIST = '/he/getDeviceList';
const sub = (n: number): SubDeviceRow => ({
  id: 100 + n,
  deviceId: `IR-${String(n).padStart(3, '0')}`,
  deviceType: 20999,
  model: 'HW-N05',
  kind: 'infrared_motion',
  name: null,
  online: false,
  lastSeenTime: null,
  battery: 80,
  signal: -70,
  signalUnit: 'dBm',
  paired: n % 2 === 0,
  pairState: n % 2 === 0 ? 'paired' : 'unpaired',
  installed: n % 2 === 0,
  installState: n % 2 === 0 ? 'host' : 'none',
  pendingCommands: [],
});
const host = (deviceId: string, subDevices: SubDeviceRow[], id: number): GatewayHostRow => ({
  ...device({
    id,
    deviceId,
    deviceType: 21008,
    model: 'LHD8100',
    kind: 'gateway_host',
    group: 'gateway',
    bunkId: null,
  }),
  subDeviceCount: subDevices.length,
  subDevices,
});
const hall = host('GW-001', [sub(1), sub(2)], 1);
const full = host(
  'GW-FULL',
  Array.from({ length: 49 }, (_, i) => sub(i + 10)),
  2,
);
const empty = { ...host('GW-EMPTY', [], 3), online: false };

type PairStates = (CommandState | [CommandState, string])[];
const receipt = (command: PairingReceipt['command'], deviceId: string): PairingReceipt => ({
  commandId: 41,
  command,
  state: 'pending',
  queuedTime: '2026-01-01T10:00:00.000Z',
  hostDeviceId: 'GW-001',
  deviceId,
  hostOnline: true,
});
/** Each status request answers the next of `states` (the last one repeats). */
const pairStatus = (
  deviceId: string,
  commandId: number,
  states: PairStates,
  command: PairingReceipt['command'] = 'pair',
): PairingStatus => {
  const next = states.length > 1 ? states.shift() : states[0];
  const [state, error] = Array.isArray(next) ? next : [next ?? 'pending', null];
  return {
    hostDeviceId: 'GW-001',
    deviceId,
    paired: state === 'acked' && command !== 'unpair',
    hostOnline: true,
    command: {
      commandId,
      command,
      state,
      error,
      attempts: state === 'pending' ? 0 : 1,
      queuedTime: '2026-01-01T10:00:00.000Z',
      sentTime: state === 'pending' ? null : '2026-01-01T10:00:01.000Z',
      ackTime: state === 'acked' ? '2026-01-01T10:00:05.000Z' : null,
      updateTime: '2026-01-01T10:00:05.000Z',
    },
  };
};
const command = (over: Partial<CommandHistoryRow> & Pick<CommandHistoryRow, 'id' | 'command'>): CommandHistoryRow => ({
  deviceId: 'GW-001',
  params: {},
  state: 'pending',
  attempts: 1,
  error: null,
  createTime: '2026-01-01T10:00:00.000Z',
  sentTime: null,
  ackTime: null,
  updateTime: '2026-01-01T10:00:00.000Z',
  ...over,
});

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  api.requests.length = 0;
  api.routes.clear();
  api.routes.set(LIST, () => ({ data: page([hall, full, empty]) }));
  api.routes.set('/device/deviceTypes', () => ({ data: CATALOGUE }));
  api.routes.set('/device/getDeviceSummary', () => ({
    data: { total: 3, online: 3, offline: 0, groups: [{ kind: 'gateway', total: 3, online: 3, offline: 0 }] },
  }));
  api.routes.set('/provider/queryProviderList', () => ({
    data: page([providerRow({ id: 7, name: 'Sunrise Care' }), providerRow({ id: 8, name: 'Harbour Home' })]),
  }));
});
afterEach(() => sessionStore.reset());

const show = async () => {
  render(inTestShell(i18n, <GatewayHostPage />));
  await screen.findByText('GW-001');
};
const rowOf = (deviceId: string) => screen.getByText(deviceId).closest('tr') as HTMLElement;

describe('GatewayHostPage', () => {
  it('lists hosts with their sub-devices and filters them', async () => {
    await show();
    expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10 });
    expect(within(rowOf('GW-001')).getByText('2 / 49')).toBeInTheDocument();
    fireEvent.click(within(rowOf('GW-001')).getByLabelText('Expand row'));
    expect(await screen.findByText('IR-001')).toBeInTheDocument();
    await choose('host-filter-online', 'Online');
    await waitFor(() => expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, online: true }));
  });

  it('pairs a sensor by ID under a host, and shows the pairing until the host answers', async () => {
    api.routes.set('/he/subDevicePair', () => ({ data: receipt('pair', 'IR-900') }));
    const states: PairStates = ['pending', 'sent', 'acked'];
    api.routes.set('/he/subDevicePairStatus', () => ({ data: pairStatus('IR-900', 41, states) }));
    await show();
    expect(screen.getByTestId('pair-GW-FULL')).toBeDisabled();
    await expectRefusal(screen.getByTestId('pair-GW-FULL'), 'This host is full: it holds at most 49 sub-devices.');
    expect(screen.getByTestId('pair-GW-001').closest('.refused-action')).toBeNull();
    fireEvent.click(screen.getByTestId('pair-GW-001'));
    const form = await screen.findByTestId('pair-form');
    expect(screen.getByText('This host has 2 sub-devices; it holds at most 49.')).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'IR-900' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'HW-N05 · Infrared motion detector',
    );
    fireEvent.click(await dialogButton('Pair'));
    await waitFor(() =>
      expect(lastJson(api, '/he/subDevicePair')).toEqual({
        hostDeviceId: 'GW-001',
        deviceId: 'IR-900',
        deviceType: 20999,
      }),
    );
    // Queued → sent to the host → paired, polled about every 1.5 s.
    expect(await screen.findByText('Pairing IR-900 with GW-001')).toBeInTheDocument();
    const progress = screen.getByTestId('pairing-progress');
    await waitFor(() => expect(progress.dataset.state).toBe('sent'), { timeout: 5_000 });
    expect(screen.getByText('Waiting for the answer of GW-001…')).toBeInTheDocument();
    expect(await screen.findByText('IR-900 is paired with GW-001.', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(lastQuery(api, '/he/subDevicePairStatus')).toEqual({ hostDeviceId: 'GW-001', deviceId: 'IR-900' });
    // A final state stops the polling.
    const asked = requestsTo(api, '/he/subDevicePairStatus').length;
    await new Promise((r) => setTimeout(r, 2_000));
    expect(requestsTo(api, '/he/subDevicePairStatus')).toHaveLength(asked);
  });

  it('pairs with the pairing button for a chosen time and shows the host\u2019s refusal', async () => {
    api.routes.set('/he/subDevicePair2', () => ({ data: receipt('pair_scan', 'IR-901') }));
    const states: PairStates = ['sent', ['failed', 'no sensor held its pairing button within 120 s']];
    api.routes.set('/he/subDevicePairStatus', () => ({ data: pairStatus('IR-901', 41, states, 'pair_scan') }));
    await show();
    fireEvent.click(screen.getByTestId('pair-GW-001'));
    const form = await screen.findByTestId('pair-form');
    fireEvent.click(within(form).getByLabelText('With the pairing button'));
    expect(
      await screen.findByText(
        'The host listens for the time chosen below: hold the sensor\u2019s pairing button for 3 seconds within it. The host must be online.',
      ),
    ).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'IR-901' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'HW-N05 · Infrared motion detector',
    );
    await choose(screen.getByTestId('pair-seconds'), '120 seconds');
    fireEvent.click(await dialogButton('Pair'));
    await waitFor(() =>
      expect(lastJson(api, '/he/subDevicePair2')).toEqual({
        hostDeviceId: 'GW-001',
        deviceId: 'IR-901',
        deviceType: 20999,
        seconds: 120,
      }),
    );
    expect(await screen.findByText('Hold the pairing button of IR-901 for 3 seconds now.')).toBeInTheDocument();
    expect(
      await screen.findByText(
        'GW-001 could not carry it out: no sensor held its pairing button within 120 s',
        {},
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('pairing-progress').dataset.state).toBe('failed');
  });

  it('offers the pairing button only for an online host, and says an offline host gets the pairing later', async () => {
    api.routes.set('/he/subDevicePair', () => ({
      data: { ...receipt('pair', 'IR-902'), hostDeviceId: 'GW-EMPTY', hostOnline: false },
    }));
    api.routes.set('/he/subDevicePairStatus', () => ({
      data: { ...pairStatus('IR-902', 41, ['pending']), hostDeviceId: 'GW-EMPTY', hostOnline: false },
    }));
    await show();
    fireEvent.click(screen.getByTestId('pair-GW-EMPTY'));
    const form = await screen.findByTestId('pair-form');
    expect(within(form).getByLabelText('With the pairing button')).toBeDisabled();
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'IR-902' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'HW-N05 · Infrared motion detector',
    );
    fireEvent.click(await dialogButton('Pair'));
    expect(
      await screen.findByText(
        'Gateway host GW-EMPTY is offline: the command is sent when it connects, and expires if it does not within 24 hours.',
      ),
    ).toBeInTheDocument();
    // Closing the dialog stops the polling.
    fireEvent.click(await dialogButton('Close'));
    await waitFor(() => expect(screen.queryByTestId('pairing-progress')).not.toBeInTheDocument());
    const asked = requestsTo(api, '/he/subDevicePairStatus').length;
    await new Promise((r) => setTimeout(r, 2_000));
    expect(requestsTo(api, '/he/subDevicePairStatus')).toHaveLength(asked);
  });

  it('unpairs a paired sub-device after a confirmation and pairs an unpaired one again', async () => {
    api.routes.set('/he/subDeviceUnPair', () => ({ data: receipt('unpair', 'IR-002') }));
    api.routes.set('/he/subDevicePairStatus', () => ({
      data: { ...pairStatus('IR-002', 41, ['acked'], 'unpair'), paired: false },
    }));
    await show();
    fireEvent.click(within(rowOf('GW-001')).getByLabelText('Expand row'));
    fireEvent.click(await screen.findByTestId('unpair-IR-002'));
    expect(
      await screen.findByText('Unpair IR-002 from GW-001? It stays under the host, to be paired, until you delete it.'),
    ).toBeInTheDocument();
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() =>
      expect(lastJson(api, '/he/subDeviceUnPair')).toEqual({ hostDeviceId: 'GW-001', deviceId: 'IR-002' }),
    );
    expect(await screen.findByText('IR-002 is no longer paired with GW-001.')).toBeInTheDocument();
    fireEvent.click(await dialogButton('Close'));

    // IR-001 waits to be paired: its Pair opens the dialog with its ID and type fixed.
    fireEvent.click(await screen.findByTestId('pair-sub-IR-001'));
    const form = await screen.findByTestId('pair-form');
    expect(within(form).getByLabelText('Device ID')).toBeDisabled();
    expect(within(form).getByLabelText('Device ID')).toHaveValue('IR-001');
  });

  it('shows the server\u2019s refusal of a pairing under the device ID', async () => {
    api.routes.set('/he/subDevicePair', () => ({
      status: 300,
      msgKey: 'device.notUnderHost',
      field: 'deviceId',
      msg: 'Device IR-901 is not a sub-device of gateway host GW-001.',
    }));
    await show();
    fireEvent.click(screen.getByTestId('pair-GW-001'));
    const form = await screen.findByTestId('pair-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'IR-901' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'HW-N05 · Infrared motion detector',
    );
    fireEvent.click(await dialogButton('Pair'));
    await waitFor(() => expect(formErrors()).toEqual(['Device IR-901 is not a sub-device of gateway host GW-001.']));
  });

  it('shows a host\u2019s commands with their states', async () => {
    api.routes.set('/device/commandList', () => ({
      data: page([
        command({ id: 3, command: 'unpair', params: { deviceId: 'IR-002', deviceType: 20999 }, state: 'pending' }),
        command({
          id: 2,
          command: 'pair_scan',
          params: { deviceId: 'IR-001', deviceType: 20999, seconds: 60 },
          state: 'failed',
          error: 'no sensor held its pairing button within 60 s',
        }),
        command({ id: 1, command: 'pair', params: { deviceId: 'IR-001', deviceType: 20999 }, state: 'acked' }),
      ]),
    }));
    await show();
    fireEvent.click(screen.getByTestId('commands-GW-001'));
    const table = await screen.findByTestId('command-table');
    await within(table).findByText('Unpair sub-device');
    expect(lastQuery(api, '/device/commandList')).toEqual({ deviceId: 'GW-001', pageNum: '1', pageSize: '10' });
    expect(within(table).getByText('Queued')).toBeInTheDocument();
    expect(within(table).getByText('Failed')).toBeInTheDocument();
    expect(within(table).getByText('Done')).toBeInTheDocument();
    expect(within(table).getByText('no sensor held its pairing button within 60 s')).toBeInTheDocument();
    expect(within(table).getByText('IR-001, listening 60 s')).toBeInTheDocument();
  });

  it('shows each sub-device’s pairing and online state as the server derives them, with units', async () => {
    api.routes.set(LIST, () => ({
      data: page([
        {
          ...hall,
          subDevices: [
            { ...sub(1), online: true, paired: true, pairState: 'paired', installed: true, installState: 'host' },
            { ...sub(3), pairState: 'pairing', signal: 62, signalUnit: 'percent' },
          ],
        },
      ]),
    }));
    await show();
    fireEvent.click(within(rowOf('GW-001')).getByLabelText('Expand row'));
    const table = await screen.findByTestId('subs-GW-001');
    const subRow = (id: string) => within(table).getByText(id).closest('tr') as HTMLElement;
    // Heard through its host: online and paired, never online and awaiting pairing.
    expect(within(subRow('IR-001')).getByText('Online')).toBeInTheDocument();
    expect(within(subRow('IR-001')).getByTestId('device-pair')).toHaveTextContent('Paired');
    // dBm and a 0–100 level among the host's sensors: each signal says its unit; the battery's is in its header.
    expect(within(subRow('IR-001')).getByText('-70 dBm')).toBeInTheDocument();
    expect(within(subRow('IR-001')).getByText('80')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Battery (%)' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Signal' })).toBeInTheDocument();
    expect(within(subRow('IR-003')).getByTestId('device-pair')).toHaveTextContent('Pairing');
    expect(within(subRow('IR-003')).getByText('62%')).toBeInTheDocument();
  });

  it('refreshes the hosts every 10 seconds, keeping the filters', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await show();
      await choose('host-filter-online', 'Online');
      await waitFor(() => expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, online: true }));
      const before = requestsTo(api, LIST).length;
      api.routes.set(LIST, () => ({ data: page([{ ...hall, online: false, signal: -90 }]) }));
      await vi.advanceTimersByTimeAsync(10_000);
      await waitFor(() => expect(requestsTo(api, LIST).length).toBeGreaterThan(before));
      expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, online: true });
      await waitFor(() => expect(within(rowOf('GW-001')).getByText('Offline')).toBeInTheDocument());
      expect(within(rowOf('GW-001')).getByText('-90')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('replaces a host, refusing the same ID locally', async () => {
    await show();
    fireEvent.click(within(rowOf('GW-001')).getByText('Replace'));
    const form = await screen.findByTestId('replace-form');
    const input = within(form).getByLabelText('New device ID');
    fireEvent.change(input, { target: { value: 'gw-001' } });
    fireEvent.click(await dialogButton('Replace'));
    await waitFor(() => expect(formErrors()).toEqual(['The new device must differ from the old one']));
    expect(requestsTo(api, '/he/replaceDevice')).toHaveLength(0);
    api.routes.set('/he/replaceDevice', () => ({
      data: { id: 9, deviceId: 'GW-009', telecom: 'not_registered', telecomMsg: null },
    }));
    fireEvent.change(input, { target: { value: 'GW-009' } });
    fireEvent.click(await dialogButton('Replace'));
    await waitFor(() =>
      expect(lastJson(api, '/he/replaceDevice')).toEqual({ deviceId: 'GW-001', newDeviceId: 'GW-009' }),
    );
    expect(await screen.findByText('GW-001 replaced by GW-009.')).toBeInTheDocument();
  });

  it('deletes an empty host with its type after a confirmation, and not a host with sub-devices', async () => {
    api.routes.set('/he/deleteDevice', () => ({ data: { telecom: 'disabled', telecomMsg: null } }));
    await show();
    const withSubs = within(rowOf('GW-001')).getByText('Delete').closest('button') as HTMLElement;
    expect(withSubs).toBeDisabled();
    await expectRefusal(withSubs, 'Remove its 2 sub-devices first.');
    expect(within(rowOf('GW-EMPTY')).getByText('Delete').closest('.refused-action')).toBeNull();
    fireEvent.click(within(rowOf('GW-EMPTY')).getByText('Delete'));
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() =>
      expect(lastQuery(api, '/he/deleteDevice')).toEqual({ deviceId: 'GW-EMPTY', deviceType: '21008' }),
    );
    expect(lastTo(api, '/he/deleteDevice')?.method).toBe('DELETE');
  });

  it('deletes a sub-device with its own type', async () => {
    api.routes.set('/he/deleteDevice', () => ({ data: { telecom: 'disabled', telecomMsg: null } }));
    await show();
    fireEvent.click(within(rowOf('GW-001')).getByLabelText('Expand row'));
    const subRow = (await screen.findByText('IR-002')).closest('tr') as HTMLElement;
    fireEvent.click(within(subRow).getByText('Delete'));
    expect(
      await screen.findByText('Delete sub-device IR-002? It leaves its host and returns to stock.'),
    ).toBeInTheDocument();
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() =>
      expect(lastQuery(api, '/he/deleteDevice')).toEqual({ deviceId: 'IR-002', deviceType: '20999' }),
    );
  });

  it('lets device administrators move a host to another provider', async () => {
    signInAs('SENIOR_ROLE');
    api.routes.set('/he/changProvider', () => ({ data: { moved: 3 } }));
    await show();
    fireEvent.click(within(rowOf('GW-001')).getByText('Move to provider'));
    const form = await screen.findByTestId('move-form');
    fireEvent.click(await dialogButton('Move to provider'));
    await waitFor(() => expect(formErrors()).toEqual(['Required']));
    await choose(form.querySelector('.ant-select') as HTMLElement, 'Harbour Home');
    fireEvent.click(await dialogButton('Move to provider'));
    await waitFor(() => expect(lastForm(api, '/he/changProvider')).toEqual({ deviceId: 'GW-001', providerId: '8' }));
    expect(await screen.findByText('Moved 3 devices.')).toBeInTheDocument();
  });

  it('does not offer moving hosts to provider accounts', async () => {
    signInAs('ONE_ROLE');
    await show();
    expect(within(rowOf('GW-001')).queryByText('Move to provider')).not.toBeInTheDocument();
  });

  it('adds a host without a type (the server knows it)', async () => {
    api.routes.set('/he/addHost', () => ({ data: { id: 4, deviceId: 'GW-010' } }));
    await show();
    fireEvent.click(screen.getByTestId('host-add'));
    const form = await screen.findByTestId('device-form');
    expect(within(form).queryByLabelText('Device type')).not.toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'GW-010' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(lastJson(api, '/he/addHost')).toEqual({ deviceId: 'GW-010' }));
  });

  it('downloads the host and infrared templates and keeps host imports for a chosen provider', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:template');
    URL.revokeObjectURL = vi.fn();
    signInAs('SUPER_ROLE');
    await show();
    expect(screen.getByTestId('host-import')).toBeDisabled();
    fireEvent.click(screen.getByTestId('infrared-import'));
    fireEvent.click(await screen.findByTestId('import-template'));
    await waitFor(() => expect(lastQuery(api, '/he/excelModel')).toEqual({ kind: 'infrared', language: 'en-US' }));
    fireEvent.click(await dialogButton('Close'));
    await choose('host-filter-provider', 'Sunrise Care');
    await waitFor(() => expect(screen.getByTestId('host-import')).toBeEnabled());
    fireEvent.click(screen.getByTestId('host-import'));
    await screen.findByText('Import hosts', { selector: '.ant-modal-title' });
    fireEvent.click([...document.querySelectorAll<HTMLElement>('[data-testid=import-template]')].at(-1) as HTMLElement);
    await waitFor(() => expect(lastQuery(api, '/he/excelModel')).toEqual({ kind: 'host', language: 'en-US' }));
  });

  it('shows each host as a card on a phone, its sensors as cards inside it with their state', async () => {
    setWindowWidth(390);
    try {
      api.routes.set(LIST, () => ({
        data: page([host('GW-001', [{ ...sub(2), online: true, lastSeenTime: '2026-01-01T10:00:00.000Z' }], 1)]),
      }));
      await show();
      const card = screen.getByText('GW-001').closest('[data-testid="list-card"]') as HTMLElement;
      expect(
        within(card.querySelector('[data-card="state"]') as HTMLElement).getByTestId('device-online'),
      ).toBeInTheDocument();
      expect(card.querySelector('[data-field="model"]')).toHaveTextContent('LHD8100');
      expect(card.querySelector('[data-field="subs"]')).toHaveTextContent('1 / 49');
      const sensor = within(card).getByText('IR-002').closest('[data-testid="list-card"]') as HTMLElement;
      expect(within(sensor).getByTestId('device-online')).toHaveTextContent('Online');
      expect(within(sensor).getByTestId('device-pair')).toHaveTextContent('Paired');
      expect(sensor.querySelector('[data-field="model"]')).toHaveTextContent('HW-N05');
      expect(sensor.querySelector('[data-field="connection"]')).toHaveTextContent(/Last seen /);
      expect(within(sensor).getByTestId('unpair-IR-002')).toBeInTheDocument();
      expect(document.querySelector('table')).toBeNull();
    } finally {
      restoreWindowWidth();
    }
  });
});
