import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  dealResultsFor,
  alarmLogUnDeal,
  alertFlag,
  getPlatformName,
  type AlarmRecord,
  type LoginResult,
  type Role,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'react-router';
import { sessionStore } from '../shared/session/session-store.ts';
import { checkFakeAnswer } from '../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../test/render.tsx';
import { Navbar } from './Navbar.tsx';

vi.setConfig({ testTimeout: 60_000 });

const NOW = Math.floor(Date.now() / 1000);
const pendingAlarm = (id: number, over: Partial<AlarmRecord> = {}): AlarmRecord => ({
  id,
  alertRecordId: id,
  type: 'sleep',
  deviceId: `SLP-${id}`,
  deviceType: 52,
  alertType: 'HEART_ABNORMAL',
  status: 1,
  bunk: 'A',
  floorArea: 'Building A / Floor 1',
  room: '101',
  userName: 'Margaret Ellis',
  userId: id,
  alertLevel: 2,
  timeStamp: NOW - 125,
  lastTime: NOW - 125,
  count: 1,
  duration: 120,
  text: `101 A: Margaret Ellis has an abnormal heart rate (${id})`,
  voiceWay: 2,
  isRelieve: false,
  releaseKind: 0,
  relieveReason: null,
  dealResult: null,
  handlerName: null,
  dealTime: null,
  remark: null,
  speechCount: 0,
  speechStartTime: null,
  providerId: 7,
  awaitingAck: false,
  clearedTime: null,
  releaseText: null,
  measure: null,
  measureText: null,
  resultOptions: [...dealResultsFor(over.alertType ?? 'HEART_ABNORMAL')],
  ...over,
});
/** The server's pending list, level 1 first (it orders them as asked). */
let pending: AlarmRecord[] = [
  pendingAlarm(31, {
    alertType: 'BREATH_STOP',
    alertLevel: 1,
    userName: 'Ada Byron',
    room: '102',
    bunk: 'B',
    timeStamp: NOW - 3_900,
  }),
  pendingAlarm(32),
];
const unDealBodies: unknown[] = [];

/** What the fake server says of pending alarms. */
let flag = { flag: true, count: 2 };
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  const envelope = (data: unknown) => {
    checkFakeAnswer(path, { status: 200, data });
    return new Response(JSON.stringify({ status: 200, msg: 'ok', data }), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  if (path === alertFlag.path) return envelope({ ...flag });
  if (path === alarmLogUnDeal.path) {
    unDealBodies.push(JSON.parse(String(init?.body)));
    return envelope({ rows: pending, total: flag.count, pageNum: 1, pageSize: 8 });
  }
  if (path === getPlatformName.path) return envelope({ platformName: 'Vigil Care Cloud', logoUrl: null });
  return new Response(JSON.stringify({ status: 200, msg: 'ok', data: null }));
});
const flagRequests = () => fetchMock.mock.calls.filter(([url]) => url.startsWith(alertFlag.path)).length;

const signInAs = (role: Role) =>
  sessionStore.signIn({
    token: 'test-token',
    key: 'k',
    permissionType: 0,
    voiceFlag: true,
    role,
    providerRole: null,
    uploadDataFlag: false,
    menuList: [],
    landingPath: '/',
    userId: 1,
    userName: 'carer01',
    name: 'Chen',
    domain: null,
    providerId: null,
    providerName: null,
    providerList: [],
    currentProvider: null,
    mustChangePassword: false,
    abroad: false,
    deviceGroups: [],
  } satisfies LoginResult);

/** Where the router is: the bell navigates. */
const WhereAmI = () => {
  const location = useLocation();
  return <span data-testid="where">{`${location.pathname}${location.search}`}</span>;
};

let i18n: I18n;
const realFetch = globalThis.fetch;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  flag = { flag: true, count: 2 };
  unDealBodies.length = 0;
  fetchMock.mockClear();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  sessionStore.reset();
});
const show = () =>
  render(
    inTestShell(
      i18n,
      <>
        <Navbar collapsed={false} onToggle={() => undefined} />
        <WhereAmI />
      </>,
      '/realMonitor/index',
    ),
  );
/** The count the bell's badge shows, if any. */
const shownCount = () =>
  screen.getByTestId('nav-bell').querySelector('.ant-badge-count')?.getAttribute('title') ?? null;
const dotShown = () => shownCount() !== null;

describe('Navbar alarm bell', () => {
  // Issue 29, point 12: the bell showed only a dot and led to the log; nobody saw how many or which.
  it('shows how many alarms are pending, and lists them: level 1 first, type, resident · place, how long', async () => {
    signInAs('CARER');
    show();
    await waitFor(() => expect(shownCount()).toBe('2'));
    expect(screen.getByTestId('nav-bell')).toHaveAttribute('data-pending', '2');
    expect(screen.getByTestId('nav-alarms')).toHaveAccessibleName('Alarms: 2 pending');
    expect(flagRequests()).toBe(1);
    fireEvent.click(screen.getByTestId('nav-alarms'));
    const panel = await screen.findByTestId('bell-panel');
    expect(unDealBodies.at(-1)).toEqual({ pageNum: 1, pageSize: 8, orderBy: 'alertLevel', order: 'asc' });
    expect(within(panel).getByText('Pending alarms (2)')).toBeInTheDocument();
    const [first, second] = await waitFor(() => {
      const rows = within(panel)
        .getAllByRole('button')
        .filter((b) => b.dataset.testid?.startsWith('bell-alarm-'));
      expect(rows).toHaveLength(2);
      return rows;
    });
    expect(first).toHaveTextContent('Level 1');
    expect(first).toHaveTextContent('Breathing stopped');
    expect(first).toHaveTextContent('Ada Byron · 102 B');
    expect(first).toHaveTextContent('1 h 5 min ago');
    expect(within(first as HTMLElement).getByText('Level 1')).toHaveClass('ant-tag-red');
    expect(second).toHaveTextContent('Level 2');
    expect(second).toHaveTextContent('Abnormal heart rate');
    expect(second).toHaveTextContent('Margaret Ellis · 101 A');
    expect(second).toHaveTextContent('2 min ago');

    // A row opens that alarm's handling; the list closes.
    fireEvent.click(first as HTMLElement);
    expect(screen.getByTestId('where')).toHaveTextContent('/realMonitor/index?handle=31');
    await waitFor(() => expect(screen.queryByTestId('bell-panel')).not.toBeVisible());
  });

  it('leads from its list to the whole alarm log, and says when nothing is pending', async () => {
    flag = { flag: false, count: 0 };
    pending = [];
    signInAs('SOCIAL_WORKER');
    show();
    await waitFor(() => expect(screen.getByTestId('nav-bell')).toHaveAttribute('data-pending', '0'));
    fireEvent.click(screen.getByTestId('nav-alarms'));
    expect(await screen.findByText('No alarm is pending.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('bell-see-all'));
    expect(screen.getByTestId('where')).toHaveTextContent('/alarm-log/alarmIndex');
  });

  it('shows no dot when nothing is pending', async () => {
    flag = { flag: false, count: 0 };
    signInAs('SOCIAL_WORKER');
    show();
    // The answer has arrived once the bell carries its count.
    await waitFor(() => expect(screen.getByTestId('nav-bell')).toHaveAttribute('data-pending', '0'));
    expect(dotShown()).toBe(false);
    expect(flagRequests()).toBe(1);
  });

  it('asks again every minute', async () => {
    signInAs('CARER');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      show();
      await waitFor(() => expect(dotShown()).toBe(true));
      flag = { flag: false, count: 0 };
      await vi.advanceTimersByTimeAsync(59_000);
      expect(flagRequests()).toBe(1);
      await vi.advanceTimersByTimeAsync(1_500);
      await waitFor(() => expect(screen.getByTestId('nav-bell')).toHaveAttribute('data-pending', '0'));
      expect(dotShown()).toBe(false);
      expect(flagRequests()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is not shown, and not asked for, where the alarm log is not allowed', async () => {
    signInAs('SENIOR_ROLE');
    show();
    await screen.findByTestId('navbar');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url.startsWith(getPlatformName.path))).toBe(true));
    expect(screen.queryByTestId('nav-bell')).not.toBeInTheDocument();
    expect(flagRequests()).toBe(0);
  });
});
