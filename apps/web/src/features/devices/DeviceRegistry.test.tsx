import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import type { StockRow } from './device-model.ts';
import {
  CATALOGUE,
  choose,
  confirmButton,
  expectRefusal,
  dialogButton,
  formErrors,
  lastJson,
  page,
  requestsTo,
  signInAs,
  installFakeApi,
} from './test-server.ts';

const api = installFakeApi();

import SleepDevicePage from './SleepDevicePage.tsx';

vi.setConfig({ testTimeout: 120_000 });

const LIST = '/device/stock/list';
const entry = (deviceId: string, overrides: Partial<StockRow> = {}): StockRow => ({
  deviceId,
  cipherId: null,
  deviceType: 52,
  model: 'M8701W',
  imei: null,
  imei4g: null,
  iccid: null,
  firmwareType: null,
  batch: '2026-01',
  importTime: '2026-01-01T10:00:00.000Z',
  stockState: 'in_stock',
  providerId: null,
  providerName: null,
  ...overrides,
});

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  api.requests.length = 0;
  api.routes.clear();
  api.routes.set(LIST, () => ({
    data: page([
      entry('SLP-5001'),
      entry('SLP-5002', { stockState: 'added', providerId: 7, providerName: 'Sunrise Care' }),
    ]),
  }));
  api.routes.set('/device/deviceTypes', () => ({ data: CATALOGUE }));
  api.routes.set('/device/getDeviceList', () => ({ data: page([]) }));
  api.routes.set('/device/getDeviceSummary', () => ({ data: { total: 0, online: 0, offline: 0, groups: [] } }));
  api.routes.set('/provider/queryProviderList', () => ({ data: page([]) }));
});
afterEach(() => sessionStore.reset());

const openRegistry = async () => {
  render(inTestShell(i18n, <SleepDevicePage />));
  fireEvent.click(await screen.findByText('Device registry'));
  await screen.findByText('SLP-5001');
};
const rowOf = (deviceId: string) => screen.getByText(deviceId).closest('tr') as HTMLElement;

describe('Device registry (sleep monitor page)', () => {
  it('is a tab for device administrators only', async () => {
    signInAs('ONE_ROLE');
    render(inTestShell(i18n, <SleepDevicePage />));
    await screen.findByTestId('device-table');
    expect(screen.queryByText('Device registry')).not.toBeInTheDocument();
  });

  it('lists entries with their state and filters them', async () => {
    signInAs('SUPER_ROLE');
    await openRegistry();
    expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10 });
    expect(within(rowOf('SLP-5002')).getByText('Added by Sunrise Care')).toBeInTheDocument();
    const search = screen.getByPlaceholderText('Device ID, cipher ID, IMEI, ICCID or batch');
    fireEvent.change(search, { target: { value: '2026-01' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, keyWord: '2026-01' }));
    await choose('stock-filter-state', 'In stock');
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, keyWord: '2026-01', stockState: 'in_stock' }),
    );
  });

  it('removes an entry in stock after a confirmation, but not one a provider added', async () => {
    signInAs('SENIOR_ROLE');
    await openRegistry();
    const added = within(rowOf('SLP-5002')).getByText('Remove').closest('button') as HTMLElement;
    expect(added).toBeDisabled();
    await expectRefusal(added, 'A provider has added this device: it is not in stock and must be deleted there first.');
    fireEvent.click(within(rowOf('SLP-5001')).getByText('Remove'));
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() => expect(lastJson(api, '/device/stock/remove')).toEqual({ deviceId: 'SLP-5001' }));
  });

  it('adds one entry, checking formats locally and showing the server problems under their fields', async () => {
    signInAs('SUPER_ROLE');
    await openRegistry();
    fireEvent.click(screen.getByTestId('stock-add'));
    const form = await screen.findByTestId('stock-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'SLP-6001' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'M8701W · Sleep monitor',
    );
    fireEvent.change(within(form).getByLabelText('IMEI'), { target: { value: '12345' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['15 digits']));
    expect(requestsTo(api, '/device/stock/import')).toHaveLength(0);

    api.routes.set('/device/stock/import', () => ({
      status: 400,
      msgKey: 'deviceStock.rowErrors',
      msg: '1 problems found; nothing was added.',
      data: {
        problems: [
          {
            index: 0,
            field: 'deviceId',
            msgKey: 'deviceStock.exists',
            msg: 'This device ID is already in the registry.',
          },
        ],
      },
    }));
    fireEvent.change(within(form).getByLabelText('IMEI'), { target: { value: '861234567890123' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['This device ID is already in the registry.']));
    expect(lastJson(api, '/device/stock/import')).toEqual({
      rows: [{ deviceId: 'SLP-6001', deviceType: 52, imei: '861234567890123' }],
    });
  });
});
