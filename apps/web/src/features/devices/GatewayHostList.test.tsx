import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import type { GatewayHostRow, SubDeviceRow } from './device-model.ts';
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
  paired: n % 2 === 0,
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
const empty = host('GW-EMPTY', [], 3);

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

  it('pairs a sub-device under a host, and not under a full one', async () => {
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
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastJson(api, '/he/insertDevice')).toEqual({
        hostDeviceId: 'GW-001',
        deviceId: 'IR-900',
        deviceType: 20999,
      }),
    );
  });

  it('shows a server refusal of a pairing under the device ID', async () => {
    api.routes.set('/he/insertDevice', () => ({
      status: 300,
      msgKey: 'device.addedByOther',
      field: 'deviceId',
      msg: 'This device has been added by another provider.',
    }));
    await show();
    fireEvent.click(screen.getByTestId('pair-GW-001'));
    const form = await screen.findByTestId('pair-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'IR-901' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'HW-N05 · Infrared motion detector',
    );
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['This device has been added by another provider.']));
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
    await waitFor(() => expect(formErrors()).toEqual(['Choose a provider']));
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
});
