import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  alarmLogUnDeal,
  defaultAlarmLevels,
  queryAlertLevel,
  type AlarmRecord,
  type AlertLevelSettings,
  type LoginResult,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../session/session-store.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { LiveAlarms, SoundPrompt, useLiveAlarms } from './LiveAlarms.tsx';
import { useLiveVitals } from './live-vitals.tsx';
import { alarmRecord } from '../../test/alarm-record.ts';

/** A WebSocket the test plays the server of; every one the page opens is kept. */
class FakeWebSocket {
  static readonly OPEN = 1;
  static opened: FakeWebSocket[] = [];
  readyState = 0;
  sent: { path: string; data: unknown }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.();
    }, 0);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text) as { path: string; data: unknown });
  }
  close() {
    this.readyState = 3;
  }
  say(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const alarm = (id: number, over: Partial<AlarmRecord> = {}): AlarmRecord =>
  alarmRecord(id, {
    type: 'fall',
    deviceId: 'RADAR-1',
    deviceType: 21011,
    alertType: 'FALL',
    bunk: '101-1',
    floorArea: null,
    room: '101',
    userName: 'Ada',
    userId: 3,
    alertLevel: 1,
    timeStamp: 1_790_000_000 + id,
    lastTime: 1_790_000_000 + id,
    text: `101 101-1: Ada has fallen (${id})`,
    voiceWay: 0,
    resultOptions: ['NO_ABNORMALITY', 'DOCTOR_INFORMED', 'FAMILY_CONTACTED'],
    ...over,
  });

let settingsAnswer: (value: AlertLevelSettings) => void = () => undefined;
const unDealRequests: unknown[] = [];
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  const envelope = (data: unknown) => {
    checkFakeAnswer(path, { status: 200, data });
    return new Response(JSON.stringify({ status: 200, msg: 'ok', data }), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  if (path === queryAlertLevel.path) return envelope(await new Promise((resolve) => (settingsAnswer = resolve)));
  if (path === alarmLogUnDeal.path) {
    unDealRequests.push(JSON.parse(String(init?.body)));
    return envelope({ rows: [alarm(1)], total: 1, pageNum: 1, pageSize: 1000 });
  }
  return new Response(JSON.stringify({ status: 200, msg: 'ok', data: null }));
});

const Pending = () => {
  const { pending, state } = useLiveAlarms();
  return (
    <div>
      <span data-testid="state">{state}</span>
      <span data-testid="pending">{pending.map((a) => a.id).join(',')}</span>
    </div>
  );
};

/** A screen part watching residents' vitals: their heart rates as pushed. */
const Watching = ({ userIds }: { userIds: number[] }) => {
  const pushed = useLiveVitals(userIds);
  return (
    <span data-testid={`watching-${userIds.join('-')}`}>
      {userIds.map((id) => `${id}:${pushed.get(id)?.vitals.heartRate ?? '-'}`).join(',')}
    </span>
  );
};

const TwoWatching = () => {
  const [both, setBoth] = useState(true);
  return (
    <>
      <Watching userIds={[3, 5]} />
      {both && <Watching userIds={[5, 9]} />}
      <button onClick={() => setBoth(false)}>hide</button>
    </>
  );
};

let i18n: I18n;
const realFetch = globalThis.fetch;
const realWebSocket = globalThis.WebSocket;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  FakeWebSocket.opened = [];
  unDealRequests.length = 0;
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;
  sessionStore.signIn({
    token: 't',
    key: 'socket-key',
    permissionType: 0,
    voiceFlag: true,
    role: 'TWO_ROLE',
    providerRole: 'TWO_ROLE',
    uploadDataFlag: false,
    menuList: ['RealTime', 'alarm'],
    landingPath: '/realMonitor/index',
    userId: 1,
    userName: 'home',
    name: 'Home',
    domain: null,
    providerId: 7,
    providerName: 'Home',
    providerList: [],
    currentProvider: null,
    mustChangePassword: false,
    abroad: false,
    deviceGroups: [],
  } satisfies LoginResult);
});
afterEach(() => {
  globalThis.fetch = realFetch;
  globalThis.WebSocket = realWebSocket;
  sessionStore.reset();
  window.localStorage.clear();
});

describe('LiveAlarms', () => {
  it('logs in with the key, loads the last hour’s pending alarms, and follows new alarms and releases', async () => {
    const view = render(inTestShell(i18n, <LiveAlarms children={<Pending />} />));
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    const [ws] = FakeWebSocket.opened;
    await waitFor(() => expect(ws?.sent[0]).toEqual({ path: '/login', data: { key: 'socket-key' } }));
    expect(ws?.url).toMatch(/\/websocket\?lang=en-US$/);
    act(() => ws?.say({ path: '/login', code: 200 }));
    await waitFor(() => expect(screen.getByTestId('pending')).toHaveTextContent('1'));
    expect(screen.getByTestId('state')).toHaveTextContent('open');
    const [check] = unDealRequests as { startTime: number; pageSize: number; order: string }[];
    expect(check).toMatchObject({ pageSize: 1000, order: 'desc', orderBy: 'timeStamp' });
    expect(Math.abs((check?.startTime ?? 0) - (Date.now() / 1000 - 3600))).toBeLessThan(5);

    act(() => ws?.say({ path: '/alertNotify', data: alarm(2) }));
    expect(screen.getByTestId('pending')).toHaveTextContent('2,1');
    expect(ws?.sent.at(-1)).toEqual({
      path: '/wsLog',
      data: { key: 'socket-key', msg: { type: 'newAlarm', alertRecordId: 2 } },
    });
    expect(await screen.findByText('101 101-1: Ada has fallen (2)')).toBeInTheDocument();
    // Kept per provider, so a reload shows them at once.
    expect(JSON.parse(window.localStorage.getItem('pendingAlarms_7') ?? '[]')).toHaveLength(2);

    act(() =>
      ws?.say({ path: '/userStatusNotify', data: { ...alarm(1), alertType: 'RELIVE_ALERT', relievedType: 'FALL' } }),
    );
    expect(screen.getByTestId('pending')).toHaveTextContent(/^2$/);
    expect(ws?.sent.at(-1)).toEqual({
      path: '/wsLog',
      data: { key: 'socket-key', msg: { type: 'relieveAlarm', alertRecordId: 1 } },
    });

    // The alarm settings arriving later must not tear the socket down.
    await act(async () => {
      settingsAnswer({
        providerId: 7,
        alertTypeL1: { pc: true, globalVoiceWay: 3, latch: true, snoozeMinutes: 10 },
        alertTypeL2: { pc: true, globalVoiceWay: 2, latch: false, snoozeMinutes: 30 },
        levelMap: defaultAlarmLevels(),
        voiceFlag: true,
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(FakeWebSocket.opened).toHaveLength(1);
    view.unmount();
  });

  it('keeps a level 1 alarm that cleared by itself, and its popup with Handle and View, until it is handled', async () => {
    const view = render(inTestShell(i18n, <LiveAlarms children={<Pending />} />));
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    const [ws] = FakeWebSocket.opened;
    act(() => ws?.say({ path: '/login', code: 200 }));
    await waitFor(() => expect(screen.getByTestId('pending')).toHaveTextContent('1'));
    const breathing = alarm(4, { alertType: 'BREATH_STOP', type: 'sleep', text: 'Ada has stopped breathing' });
    act(() => ws?.say({ path: '/alertNotify', data: breathing }));
    expect(await screen.findByText('Ada has stopped breathing')).toBeInTheDocument();
    expect(screen.getByTestId('popup-handle')).toHaveTextContent('Handle');
    expect(screen.getByTestId('popup-view')).toHaveTextContent('View');

    // Breathing resumed: released (kind 2) but latched. The card and the popup stay, the popup says so.
    const cleared = {
      ...breathing,
      isRelieve: true,
      releaseKind: 2 as const,
      awaitingAck: true,
      clearedTime: 1_790_000_100,
    };
    act(() =>
      ws?.say({
        path: '/userStatusNotify',
        data: { ...cleared, alertType: 'RELIVE_ALERT', relievedType: 'BREATH_STOP' },
      }),
    );
    expect(screen.getByTestId('pending')).toHaveTextContent('4,1');
    expect(await screen.findByText(/Resolved by itself at .*still to be handled/)).toBeInTheDocument();
    expect(screen.getByText('Ada has stopped breathing')).toBeInTheDocument();
    expect(ws?.sent.some((f) => JSON.stringify(f).includes('relieveAlarm'))).toBe(false);

    // A person handled it: now it goes.
    act(() =>
      ws?.say({
        path: '/userStatusNotify',
        data: { ...cleared, awaitingAck: false, alertType: 'RELIVE_ALERT', relievedType: 'BREATH_STOP' },
      }),
    );
    expect(screen.getByTestId('pending')).toHaveTextContent(/^1$/);
    await waitFor(() => expect(screen.queryByText('Ada has stopped breathing')).not.toBeInTheDocument());
    view.unmount();
  });

  it('a popup says what and how much, and how long ago; an event alarm’s popup nothing extra (issue 29)', async () => {
    const view = render(inTestShell(i18n, <LiveAlarms children={<Pending />} />));
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    const [ws] = FakeWebSocket.opened;
    act(() => ws?.say({ path: '/login', code: 200 }));
    await waitFor(() => expect(screen.getByTestId('pending')).toHaveTextContent('1'));
    const heart = alarm(6, {
      alertType: 'HEART_ABNORMAL',
      type: 'sleep',
      alertLevel: 2,
      timeStamp: Math.floor(Date.now() / 1000) - 130,
      text: '101 101-1: Ada has an abnormal heart rate',
      measure: { quantity: 'heartRate', value: 58, limit: 75, side: 'below', seconds: 120 },
      measureText: 'heart rate 58 /min · below the limit 75 · for 2 min',
    });
    act(() => ws?.say({ path: '/alertNotify', data: heart }));
    const popup = within(await screen.findByTestId('popup-6'));
    expect(popup.getByText('101 101-1: Ada has an abnormal heart rate')).toBeInTheDocument();
    expect(popup.getByTestId('alarm-measure')).toHaveTextContent('heart rate 58 /min · below the limit 75 · for 2 min');
    expect(popup.getByTestId('alarm-elapsed')).toHaveTextContent(/^2 min 1\d s ago$/);

    act(() => ws?.say({ path: '/alertNotify', data: alarm(7) }));
    const fall = within(await screen.findByTestId('popup-7'));
    expect(fall.queryByTestId('alarm-measure')).toBeNull();
    expect(fall.getByTestId('alarm-elapsed')).toBeInTheDocument();
    view.unmount();
  });

  it('follows the residents every mounted screen part watches, and hands them the pushed vitals', async () => {
    const subscribes = () => FakeWebSocket.opened[0]?.sent.filter((f) => f.path === '/websocket/subscribe/') ?? [];
    const view = render(
      inTestShell(
        i18n,
        <LiveAlarms>
          <TwoWatching />
        </LiveAlarms>,
      ),
    );
    await waitFor(() => expect(FakeWebSocket.opened[0]?.sent[0]?.path).toBe('/login'));
    const [ws] = FakeWebSocket.opened;
    act(() => ws?.say({ path: '/login', code: 200 }));
    await waitFor(() =>
      expect(subscribes().at(-1)).toEqual({
        path: '/websocket/subscribe/',
        data: { key: 'socket-key', userIds: [3, 5, 9] },
      }),
    );
    expect(subscribes()).toHaveLength(1);

    act(() =>
      ws?.say({
        path: '/vitalsNotify',
        data: {
          rows: [
            { userId: 5, deviceId: 'SLP-5', online: true, inBed: true, heartRate: 64, breathRate: 14, move: 0, ts: 1 },
          ],
        },
      }),
    );
    expect(screen.getByTestId('watching-3-5')).toHaveTextContent('3:-,5:64');
    expect(screen.getByTestId('watching-5-9')).toHaveTextContent('5:64,9:-');

    // One part goes: the socket follows the rest.
    fireEvent.click(screen.getByText('hide'));
    await waitFor(() => expect(subscribes().at(-1)?.data).toEqual({ key: 'socket-key', userIds: [3, 5] }));
    expect(FakeWebSocket.opened).toHaveLength(1);
    view.unmount();
  });

  it('keeps the sound prompt until the first click is over, so that click lands where it was aimed', async () => {
    Object.defineProperty(navigator, 'userActivation', { value: { hasBeenActive: false }, configurable: true });
    try {
      let handled = 0;
      render(
        inTestShell(
          i18n,
          <LiveAlarms>
            <SoundPrompt />
            <button onClick={() => handled++}>Handle</button>
          </LiveAlarms>,
        ),
      );
      expect(await screen.findByTestId('sound-prompt')).toBeInTheDocument();
      const target = screen.getByText('Handle');
      fireEvent.pointerDown(target);
      fireEvent.mouseDown(target);
      // Between press and release nothing above the button may move.
      expect(screen.getByTestId('sound-prompt')).toBeInTheDocument();
      fireEvent.mouseUp(target);
      fireEvent.click(target);
      expect(handled).toBe(1);
      await waitFor(() => expect(screen.queryByTestId('sound-prompt')).not.toBeInTheDocument());
    } finally {
      Reflect.deleteProperty(navigator, 'userActivation');
    }
  });
});
