import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { shortTime } from './device-labels.ts';
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
  hasSecret: false,
  secretSetTime: null,
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
      entry('SLP-5002', {
        stockState: 'added',
        providerId: 7,
        providerName: 'Sunrise Care',
        hasSecret: true,
        secretSetTime: '2026-02-03T04:05:00.000Z',
      }),
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

  it('adds an entry with a secret, checked by the contract rule and sent exactly as typed', async () => {
    signInAs('SUPER_ROLE');
    await openRegistry();
    fireEvent.click(screen.getByTestId('stock-add'));
    const form = await screen.findByTestId('stock-form');
    fireEvent.change(within(form).getByLabelText('Device ID'), { target: { value: 'SLP-6002' } });
    await choose(
      within(form).getByLabelText('Device type').closest('.ant-select') as HTMLElement,
      'M8701W · Sleep monitor',
    );
    const secret = within(form).getByLabelText('Device secret');
    fireEvent.change(secret, { target: { value: 'too short' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(formErrors()).toEqual(['16 to 128 characters: letters A–Z and a–z, digits and symbols, no spaces']),
    );
    expect(requestsTo(api, '/device/stock/import')).toHaveLength(0);
    api.routes.set('/device/stock/import', () => ({ data: { added: 1 } }));
    fireEvent.change(secret, { target: { value: 'Pad#6002-secret!xyz' } });
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastJson(api, '/device/stock/import')).toEqual({
        rows: [{ deviceId: 'SLP-6002', deviceType: 52, secret: 'Pad#6002-secret!xyz' }],
      }),
    );
  });
});

describe('Device secrets in the registry', () => {
  const SET = '/device/stock/setSecret';
  const openSecretDialog = async (deviceId: string, action: string) => {
    await openRegistry();
    fireEvent.click(within(rowOf(deviceId)).getByText(action));
    return screen.findByTestId('stock-secret-form');
  };
  const shownSecret = async () => (await screen.findByTestId('stock-secret-value')) as HTMLInputElement;

  it('shows whether an entry has a secret and since when, and offers to set or rotate it', async () => {
    signInAs('SUPER_ROLE');
    await openRegistry();
    expect(within(rowOf('SLP-5001')).getByText('Not set')).toBeInTheDocument();
    expect(within(rowOf('SLP-5001')).getByText('Set secret')).toBeInTheDocument();
    const withSecret = within(rowOf('SLP-5002'));
    expect(withSecret.getByText('Set')).toBeInTheDocument();
    expect(withSecret.getByTestId('stock-secret-time')).toHaveTextContent(shortTime('2026-02-03T04:05:00.000Z'));
    expect(within(rowOf('SLP-5001')).queryByTestId('stock-secret-time')).not.toBeInTheDocument();
    expect(withSecret.getByText('Rotate secret')).toBeInTheDocument();
  });

  it('generates a secret, shows it once read-only and copyable, and forgets it on closing', async () => {
    signInAs('SENIOR_ROLE');
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    api.routes.set(SET, () => ({ data: { deviceId: 'SLP-5002', secret: 'Gen3rated-Secret_0123456789abcdef' } }));
    await openSecretDialog('SLP-5002', 'Rotate secret');
    expect(screen.getByText('Rotate the secret of SLP-5002')).toBeInTheDocument();
    expect(
      screen.getByText(
        'The current secret stops working at once: the device connects again only once it has the new one.',
      ),
    ).toBeInTheDocument();
    fireEvent.click(await dialogButton('Generate'));
    const value = await shownSecret();
    expect(lastJson(api, SET)).toEqual({ deviceId: 'SLP-5002' });
    expect(value.value).toBe('Gen3rated-Secret_0123456789abcdef');
    expect(value).toHaveAttribute('readonly');
    expect(screen.getByTestId('stock-secret-warning')).toHaveTextContent(
      'Copy this secret now: it will not be shown again. The platform keeps only a hash of it.',
    );
    fireEvent.click(screen.getByTestId('stock-secret-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('Gen3rated-Secret_0123456789abcdef'));
    // The list is read again (hasSecret, secretSetTime); the secret is in no request or list.
    await waitFor(() => expect(requestsTo(api, LIST).length).toBeGreaterThan(1));

    fireEvent.click(screen.getByTestId('stock-secret-close'));
    await waitFor(() => expect(screen.queryByTestId('stock-secret-value')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue('Gen3rated-Secret_0123456789abcdef')).not.toBeInTheDocument();
    // Opened again, the dialog asks anew: the secret is not shown a second time.
    fireEvent.click(within(rowOf('SLP-5002')).getByText('Rotate secret'));
    await screen.findByTestId('stock-secret-form');
    expect(screen.queryByTestId('stock-secret-value')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue('Gen3rated-Secret_0123456789abcdef')).not.toBeInTheDocument();
    expect(requestsTo(api, SET)).toHaveLength(1);
  });

  it('sets a typed secret after checking it with the contract rule', async () => {
    signInAs('SUPER_ROLE');
    api.routes.set(SET, (request) => ({
      data: JSON.parse(String(request.body)) as { deviceId: string; secret: string },
    }));
    const form = await openSecretDialog('SLP-5001', 'Set secret');
    expect(screen.getByText('Set the secret of SLP-5001')).toBeInTheDocument();
    fireEvent.click(within(form).getByLabelText('Enter one'));
    const input = await within(form).findByLabelText('Device secret');
    const rule = '16 to 128 characters: letters A–Z and a–z, digits and symbols, no spaces';

    fireEvent.click(await dialogButton('Set secret'));
    await waitFor(() => expect(formErrors()).toEqual(['Required']));
    for (const bad of ['short-1', 'has spaces in the secret', 'ünïcödé-secret-12345', 'x'.repeat(129)]) {
      fireEvent.change(input, { target: { value: bad } });
      fireEvent.click(await dialogButton('Set secret'));
      await waitFor(() => expect(formErrors()).toEqual([rule]));
    }
    expect(requestsTo(api, SET)).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'My-Own~Secret#2026' } });
    fireEvent.click(await dialogButton('Set secret'));
    expect((await shownSecret()).value).toBe('My-Own~Secret#2026');
    expect(lastJson(api, SET)).toEqual({ deviceId: 'SLP-5001', secret: 'My-Own~Secret#2026' });
    expect(
      screen.getByText('The device connects with SLP-5001 as client ID and user name, and this secret as password.'),
    ).toBeInTheDocument();
  });

  it('shows a refusal of the server under the secret, and an unknown entry as a message', async () => {
    signInAs('SUPER_ROLE');
    api.routes.set(SET, () => ({
      status: 400,
      msgKey: 'device.secretFormat',
      field: 'secret',
      msg: 'Device secret must be 16 to 128 characters: letters A–Z and a–z, digits and symbols, without spaces.',
    }));
    const form = await openSecretDialog('SLP-5001', 'Set secret');
    fireEvent.click(within(form).getByLabelText('Enter one'));
    fireEvent.change(await within(form).findByLabelText('Device secret'), {
      target: { value: 'Valid-Looking-Secret-1' },
    });
    fireEvent.click(await dialogButton('Set secret'));
    await waitFor(() =>
      expect(formErrors()).toEqual([
        'Device secret must be 16 to 128 characters: letters A–Z and a–z, digits and symbols, without spaces.',
      ]),
    );
    expect(screen.queryByTestId('stock-secret-value')).not.toBeInTheDocument();

    api.routes.set(SET, () => ({
      status: 300,
      msgKey: 'device.notRegistered',
      field: 'deviceId',
      msg: 'This device ID is not registered on the platform.',
    }));
    fireEvent.click(within(form).getByLabelText('Generate one'));
    fireEvent.click(await dialogButton('Generate'));
    expect(await screen.findByText('This device ID is not registered on the platform.')).toBeInTheDocument();
    expect(screen.queryByTestId('stock-secret-value')).not.toBeInTheDocument();
  });
});
