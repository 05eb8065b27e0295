import type { AddressInfo } from 'node:net';
import {
  adminLogout,
  adminSession,
  alarmCalls,
  SOCKET_CLOSE,
  SocketServerFrameSchema,
  topicOf,
  type SocketServerFrame,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../../clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../devices/device-test-support.ts';

/** A console's socket, as a test drives it: frames received (checked against the contract) and how it closed. */
interface TestSocket {
  ws: WebSocket;
  frames: SocketServerFrame[];
  closed: Promise<number>;
  send: (frame: unknown) => void;
  next: (path: SocketServerFrame['path']) => Promise<SocketServerFrame>;
}

describe('the console’s live socket', () => {
  let app: TestApp;
  let w: DeviceWorld;
  let url: string;
  const clock = new ManualClock(new Date());
  const sockets: TestSocket[] = [];
  let seq = 1;

  const open = async (lang = 'en-US'): Promise<TestSocket> => {
    const ws = new WebSocket(`${url}?lang=${lang}`);
    const frames: SocketServerFrame[] = [];
    ws.on('message', (data) => frames.push(SocketServerFrameSchema.parse(JSON.parse(String(data)))));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const socket: TestSocket = {
      ws,
      frames,
      closed,
      send: (frame) => ws.send(JSON.stringify(frame)),
      next: async (path) => {
        await until(() => frames.some((f) => f.path === path), { what: `a ${path} frame` });
        const index = frames.findIndex((f) => f.path === path);
        return frames.splice(index, 1)[0] as SocketServerFrame;
      },
    };
    sockets.push(socket);
    return socket;
  };
  const keyOf = async (token: string) => (await app.call(adminSession, {}, { token })).data?.key ?? '';
  const loggedIn = async (token: string, lang?: string) => {
    const socket = await open(lang);
    socket.send({ path: '/login', data: { key: await keyOf(token) } });
    expect(await socket.next('/login')).toEqual({ path: '/login', code: 200 });
    return socket;
  };
  const press = (deviceId: string, event = 'sos') =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, 'event'),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, event })),
    );

  beforeAll(async () => {
    app = await createTestApp('pglite', { clock });
    w = await deviceWorld(app, 'Sock');
    await loadStock(app, w.admin, [
      { deviceId: 'SOCK-SOS1', deviceType: T.sos },
      { deviceId: 'SOCK-SMK1', deviceType: T.smoke },
      { deviceId: 'SOCK-SOS2', deviceType: T.sos },
      { deviceId: 'SOCK-SOS3', deviceType: T.sos },
      { deviceId: 'SOCK-SOS4', deviceType: T.sos },
      { deviceId: 'SOCK-SOS5', deviceType: T.sos },
    ]);
    await addDevice(app, w.aHome.token, 'SOCK-SOS1', T.sos);
    await addDevice(app, w.aHome.token, 'SOCK-SOS2', T.sos);
    await addDevice(app, w.aHome.token, 'SOCK-SOS3', T.sos);
    await addDevice(app, w.aHome.token, 'SOCK-SOS4', T.sos);
    await addDevice(app, w.aHome.token, 'SOCK-SOS5', T.sos);
    await addDevice(app, w.aHome.token, 'SOCK-SMK1', T.smoke);
    await app.services.gateway.directory.load();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/websocket`;
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await app?.close();
  });

  it('refuses a frame before /login, and an unknown key with 401 and a close', async () => {
    const socket = await open();
    socket.send({ path: '/hearBeat', data: { key: 'x', msg: 'ping' } });
    expect(await socket.next('/error')).toMatchObject({ code: 400, msg: expect.stringContaining('/login') });
    socket.send({ path: '/nonsense', data: {} });
    expect(await socket.next('/error')).toMatchObject({ code: 400 });
    socket.send({ path: '/login', data: { key: 'not-a-session-key' } });
    expect(await socket.next('/login')).toEqual({ path: '/login', code: 401 });
    expect(await socket.closed).toBe(SOCKET_CLOSE.sessionEnded);
  });

  it('pushes a new alarm to the provider’s consoles in their language, and its release', async () => {
    const english = await loggedIn(w.aHome.token);
    const chinese = await loggedIn(w.aHome.token, 'zh-CN');
    const foreign = await loggedIn(w.bGroup.token);
    await press('SOCK-SOS1');
    const frame = await english.next('/alertNotify');
    expect(frame).toMatchObject({
      path: '/alertNotify',
      data: { alertType: 'SOS', alertLevel: 1, text: 'Device SOCK-SOS1: pressed the emergency button' },
    });
    const zh = await chinese.next('/alertNotify');
    expect(zh).toMatchObject({ data: { text: '设备 SOCK-SOS1：按下紧急呼叫按钮' } });

    // A security sensor's alarm arrives as /safeAlertNotify.
    await app.services.gateway.ingest.handle(
      topicOf('SOCK-SMK1', 'event'),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, event: 'smoke', active: true })),
    );
    expect(await english.next('/safeAlertNotify')).toMatchObject({ data: { alertType: 'SMOKE', type: 'security' } });

    const id = frame.path === '/alertNotify' ? frame.data.id : 0;
    const handled = await app.call(alarmCalls.alarmRelieve, { id, reason: 'CHECKED' }, { token: w.aHome.token });
    expect(handled.status).toBe(200);
    expect(await english.next('/userStatusNotify')).toMatchObject({
      data: { id, alertType: 'RELIVE_ALERT', relievedType: 'SOS', isRelieve: true, releaseKind: 1 },
    });
    // The other provider's console heard of none of it.
    await chinese.next('/userStatusNotify');
    expect(foreign.frames).toEqual([]);
  });

  it('keeps what a console reports (/wsLog) on the alarm’s timeline, once, and only for alarms it sees', async () => {
    const socket = await loggedIn(w.aHome.token);
    await press('SOCK-SOS1');
    const frame = await socket.next('/alertNotify');
    const id = frame.path === '/alertNotify' ? frame.data.id : 0;
    const key = await keyOf(w.aHome.token);
    for (let i = 0; i < 3; i++)
      socket.send({ path: '/wsLog', data: { key, msg: { type: 'playAlarm', alertRecordId: id } } });
    const foreign = await loggedIn(w.bGroup.token);
    foreign.send({
      path: '/wsLog',
      data: { key: await keyOf(w.bGroup.token), msg: { type: 'newAlarm', alertRecordId: id } },
    });
    await until(
      async () => (await app.services.alarms.repo.timeline(app.database.db, id)).some((t) => t.step === 'played'),
      { what: 'the played step' },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const steps = (await app.services.alarms.repo.timeline(app.database.db, id)).map((t) => t.step);
    expect(steps).toEqual(['raised', 'played']);
  });

  // Issue 29, point 6: 16 consoles speaking an alarm made 16 rows, and a reloaded console added more.
  it('keeps an alarm spoken once per console: a reloaded console’s new socket adds nothing, another console adds one', async () => {
    const token = await app.login(w.aHome.userName, w.aHome.password);
    const first = await loggedIn(token);
    await press('SOCK-SOS4');
    const frame = await first.next('/alertNotify');
    const id = frame.path === '/alertNotify' ? frame.data.id : 0;
    const key = await keyOf(token);
    const played = { path: '/wsLog', data: { key, msg: { type: 'playAlarm', alertRecordId: id } } };
    first.send(played);
    const played1 = async () =>
      (await app.services.alarms.repo.timeline(app.database.db, id)).filter((t) => t.step === 'played').length;
    await until(async () => (await played1()) === 1, { what: 'the first console’s played step' });
    // The same console reloaded: a new socket of the same session speaks the alarm again.
    first.ws.close();
    const reloaded = await loggedIn(token);
    reloaded.send(played);
    // Another console (its own session) speaks it too.
    const otherToken = await app.login(w.aHome.userName, w.aHome.password);
    const other = await loggedIn(otherToken);
    other.send({
      path: '/wsLog',
      data: { key: await keyOf(otherToken), msg: { type: 'playAlarm', alertRecordId: id } },
    });
    await until(async () => (await played1()) >= 2, { what: 'the second console’s played step' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await played1()).toBe(2);
    // What the timeline shows: one row per console, without the session that told them apart.
    const timeline = await app.call(alarmCalls.alarmTimeline, { id }, { token });
    const rows = timeline.data?.filter((t) => t.step === 'played') ?? [];
    expect(rows.map((t) => [t.who, t.detail])).toEqual([
      [w.aHome.userName, { console: 'playAlarm' }],
      [w.aHome.userName, { console: 'playAlarm' }],
    ]);
  });

  it('tells the provider’s consoles of a note added to an alarm (/alarmNoteNotify), and no one else', async () => {
    const own = await loggedIn(w.aHome.token);
    const chinese = await loggedIn(w.aHome.token, 'zh-CN');
    const foreign = await loggedIn(w.bGroup.token);
    await press('SOCK-SOS5');
    const frame = await own.next('/alertNotify');
    await chinese.next('/alertNotify');
    const id = frame.path === '/alertNotify' ? frame.data.id : 0;
    const added = await app.call(
      alarmCalls.alarmAddNote,
      { id, note: 'Called her daughter' },
      { token: w.aHome.token },
    );
    expect(added.status).toBe(200);
    const note = { id, at: clock.now().getTime() / 1000, who: w.aHome.userName, note: 'Called her daughter' };
    expect(await own.next('/alarmNoteNotify')).toEqual({ path: '/alarmNoteNotify', data: note });
    expect(await chinese.next('/alarmNoteNotify')).toEqual({ path: '/alarmNoteNotify', data: note });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(foreign.frames).toEqual([]);
  });

  it('tells the provider’s consoles when its alarm settings change (/dataChange), and no one else', async () => {
    const own = await loggedIn(w.aHome.token);
    const foreign = await loggedIn(w.bGroup.token);
    const saved = await app.call(alarmCalls.saveAlertLevel, { levelMap: { DOOR: 1 } }, { token: w.aHome.token });
    expect(saved.status).toBe(200);
    expect(await own.next('/dataChange')).toEqual({ path: '/dataChange', data: { what: 'alarmSettings' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(foreign.frames).toEqual([]);
  });

  it('answers heartbeats, and closes a socket whose session ended at its next check', async () => {
    const token = await app.login(w.aHome.userName, w.aHome.password);
    const socket = await loggedIn(token);
    const key = await keyOf(token);
    socket.send({ path: '/hearBeat', data: { key, msg: 'ping' } });
    expect(await socket.next('/hearBeat')).toEqual({ path: '/hearBeat', code: 200 });
    await app.call(adminLogout, {}, { token });
    clock.advance(31_000);
    socket.send({ path: '/hearBeat', data: { key, msg: 'ping' } });
    expect(await socket.closed).toBe(SOCKET_CLOSE.sessionEnded);
  });

  it('keeps a socket open while its session cannot be read (database down), and asks a new login to try again', async () => {
    const token = await app.login(w.aHome.userName, w.aHome.password);
    const socket = await loggedIn(token);
    const key = await keyOf(token);
    const down = vi
      .spyOn(app.services.sessions, 'authenticateSocketKey')
      .mockRejectedValue(new Error('Connection terminated unexpectedly'));
    try {
      clock.advance(31_000);
      socket.send({ path: '/hearBeat', data: { key, msg: 'ping' } });
      expect(await socket.next('/hearBeat')).toEqual({ path: '/hearBeat', code: 200 });
      await until(() => down.mock.calls.length > 0, { what: 'the session check' });
      // Not closed: the session did not end, the database did not answer.
      socket.send({ path: '/hearBeat', data: { key, msg: 'ping' } });
      expect(await socket.next('/hearBeat')).toEqual({ path: '/hearBeat', code: 200 });
      expect(down).toHaveBeenCalledTimes(1);

      const newcomer = await open();
      newcomer.send({ path: '/login', data: { key } });
      expect(await newcomer.closed).toBe(SOCKET_CLOSE.tryAgainLater);
      expect(newcomer.frames).toEqual([]);
    } finally {
      down.mockRestore();
    }
    // The database is back: the check is tried again within seconds and the socket still hears alarms.
    clock.advance(6_000);
    socket.send({ path: '/hearBeat', data: { key, msg: 'ping' } });
    await socket.next('/hearBeat');
    await press('SOCK-SOS2');
    expect(await socket.next('/alertNotify')).toMatchObject({ data: { alertType: 'SOS', deviceId: 'SOCK-SOS2' } });
  });

  it('delivers an alarm whose read failed a few times once the database answers', async () => {
    const socket = await loggedIn(w.aHome.token);
    const view = vi
      .spyOn(app.services.alarms.alarms, 'view')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'))
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    try {
      await press('SOCK-SOS3');
      const frame = await socket.next('/alertNotify');
      expect(frame).toMatchObject({ data: { alertType: 'SOS' } });
      expect(view).toHaveBeenCalledTimes(3);
    } finally {
      view.mockRestore();
    }
  });

  it('closes a socket that never logs in, or goes silent', async () => {
    const never = await open();
    const silent = await loggedIn(w.aHome.token);
    clock.advance(31_000);
    expect(await never.closed).toBe(SOCKET_CLOSE.timeout);
    expect(await silent.closed).toBe(SOCKET_CLOSE.timeout);
  });
});
