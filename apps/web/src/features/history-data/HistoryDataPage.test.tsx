import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import {
  choose,
  confirmButton,
  installFakeApi,
  lastJson,
  lastQuery,
  page,
  providerRow,
  requestsTo,
  signInAs,
} from '../devices/test-server.ts';
import type { RawDayRow } from './HistoryDataPage.tsx';

const api = installFakeApi();

import HistoryDataPage from './HistoryDataPage.tsx';

vi.setConfig({ testTimeout: 120_000 });

const LIST = '/originData/getDataListPage';
const row = (deviceId: string, day: string, overrides: Partial<RawDayRow> = {}): RawDayRow => ({
  deviceId,
  deviceType: 49,
  deviceName: 'Bed pad 1',
  providerId: 7,
  providerName: 'Sunrise Care',
  day,
  minutes: 2,
  samples: 4,
  firstTime: `${day}T08:00:00.000Z`,
  lastTime: `${day}T08:01:00.000Z`,
  deviceMinutes: 1441,
  deviceDays: 2,
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
      row('SLP-1001', '2026-03-09'),
      row('SLP-2002', '2026-03-08', {
        deviceType: null,
        deviceName: null,
        providerName: null,
        minutes: 1440,
        samples: 86_400,
        firstTime: '2026-03-08T00:00:00.000Z',
        lastTime: '2026-03-08T23:59:00.000Z',
      }),
    ]),
  }));
  api.routes.set('/provider/queryProviderList', () => ({
    data: page([providerRow({ id: 7, name: 'Sunrise Care' }), providerRow({ id: 8, name: 'Harbour Home' })]),
  }));
  signInAs('SENIOR_ROLE');
});
afterEach(() => sessionStore.reset());

const show = async () => {
  render(inTestShell(i18n, <HistoryDataPage />));
  await screen.findByText('SLP-1001');
};
const rowOf = (deviceId: string) => screen.getByText(deviceId).closest('tr') as HTMLElement;

describe('Original data (/deviceManage/historyData)', () => {
  it('lists one row per device and UTC day with its counts and times', async () => {
    await show();
    expect(screen.getByText('Original data')).toBeInTheDocument();
    expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10 });
    const first = within(rowOf('SLP-1001'));
    for (const text of ['BM8701-2', 'Bed pad 1', 'Sunrise Care', '2026-03-09', '4', '08:00', '08:01']) {
      expect(first.getByText(text)).toBeInTheDocument();
    }
    const second = within(rowOf('SLP-2002'));
    for (const text of ['1440', '86400', '00:00', '23:59']) expect(second.getByText(text)).toBeInTheDocument();
    expect(second.getAllByText('—')).toHaveLength(3);
  });

  it('filters by device ID, day and provider, starting again at page 1', async () => {
    await show();
    const search = screen.getByPlaceholderText('Device ID');
    fireEvent.change(search, { target: { value: ' slp-1 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, deviceId: 'slp-1' }));

    const day = screen.getByTestId('raw-filter-day').querySelector('input') ?? screen.getByPlaceholderText('Day (UTC)');
    fireEvent.mouseDown(day);
    fireEvent.change(day, { target: { value: '2026-03-09' } });
    fireEvent.keyDown(day, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.blur(day);
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, deviceId: 'slp-1', day: '2026-03-09' }),
    );

    await choose('raw-filter-provider', 'Harbour Home');
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({
        pageNum: 1,
        pageSize: 10,
        deviceId: 'slp-1',
        day: '2026-03-09',
        providerId: 8,
      }),
    );
  });

  it('downloads a device-day as CSV under the server’s file name', async () => {
    await show();
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:raw');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const fake = globalThis.fetch;
    globalThis.fetch = (async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname !== '/originData/download') return fake(input, init);
      api.requests.push({ path: url.pathname, method: init?.method ?? 'GET', url, body: init?.body });
      return new Response('time,hr,rr,inBed,asleep,move,rri\r\n', {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="SLP-1001-2026-03-09.csv"',
        },
      });
    }) as typeof fetch;
    try {
      fireEvent.click(within(rowOf('SLP-1001')).getByText('Download CSV'));
      await waitFor(() => expect(saved).toEqual(['SLP-1001-2026-03-09.csv']));
      expect(lastQuery(api, '/originData/download')).toEqual({ deviceId: 'SLP-1001', day: '2026-03-09' });
    } finally {
      globalThis.fetch = fake;
      click.mockRestore();
    }
  });

  it('deletes a device-day after a confirmation naming it, then refreshes the list', async () => {
    api.routes.set('/originData/delete', () => ({ data: { deleted: 2 } }));
    await show();
    fireEvent.click(within(rowOf('SLP-1001')).getByText('Delete'));
    expect(
      await screen.findByText('Delete the raw data of SLP-1001 on 2026-03-09 (2 minutes)? This cannot be undone.'),
    ).toBeInTheDocument();
    const listed = requestsTo(api, LIST).length;
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() =>
      expect(lastQuery(api, '/originData/delete')).toEqual({ deviceId: 'SLP-1001', day: '2026-03-09' }),
    );
    expect(await screen.findByText('2 minutes of raw data deleted.')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo(api, LIST).length).toBeGreaterThan(listed));
  });

  it('deletes all of a device after a confirmation stating how much goes', async () => {
    api.routes.set('/originData/deleteAll', () => ({ data: { deleted: 1441 } }));
    await show();
    fireEvent.click(within(rowOf('SLP-1001')).getByText('Delete all of device'));
    expect(
      await screen.findByText('Delete all raw data of SLP-1001: 1441 minutes on 2 days? This cannot be undone.'),
    ).toBeInTheDocument();
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() => expect(lastQuery(api, '/originData/deleteAll')).toEqual({ deviceId: 'SLP-1001' }));
    expect(await screen.findByText('1441 minutes of raw data deleted.')).toBeInTheDocument();
  });

  it('shows the server’s refusal', async () => {
    api.routes.set('/originData/deleteAll', () => ({
      status: 300,
      msgKey: 'device.notFound',
      msg: 'The device does not exist.',
      field: 'deviceId',
    }));
    await show();
    fireEvent.click(within(rowOf('SLP-2002')).getByText('Delete all of device'));
    fireEvent.click(await confirmButton('OK'));
    expect(await screen.findByText('The device does not exist.')).toBeInTheDocument();
  });
});
