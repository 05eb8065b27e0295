import type { AddressInfo } from 'node:net';
import {
  adminSession,
  monitorCalls,
  SocketServerFrameSchema,
  type LiveVitals,
  type SocketServerFrame,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../../clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import { monitorWorld, streamVitals, type MonitorWorld } from './monitor-fixtures.ts';

/** A console's socket: the frames it received, with when each arrived (wall clock, ms). */
interface Console {
  ws: WebSocket;
  frames: { at: number; frame: SocketServerFrame }[];
  send: (frame: unknown) => void;
  vitals: () => { at: number; rows: LiveVitals[] }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('live vitals on the console’s socket', () => {
  let app: TestApp;
  let w: MonitorWorld;
  let url: string;
  const clock = new ManualClock(new Date());
  const consoles: Console[] = [];

  const keyOf = async (token: string) => (await app.call(adminSession, {}, { token })).data?.key ?? '';
  const connect = async (token: string): Promise<Console> => {
    const ws = new WebSocket(`${url}?lang=en-US`);
    const frames: Console['frames'] = [];
    ws.on('message', (data) =>
      frames.push({ at: Date.now(), frame: SocketServerFrameSchema.parse(JSON.parse(String(data))) }),
    );
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const c: Console = {
      ws,
      frames,
      send: (frame) => ws.send(JSON.stringify(frame)),
      vitals: () =>
        frames.flatMap(({ at, frame }) => (frame.path === '/vitalsNotify' ? [{ at, rows: frame.data.rows }] : [])),
    };
    consoles.push(c);
    c.send({ path: '/login', data: { key: await keyOf(token) } });
    await until(() => frames.some((f) => f.frame.path === '/login'), { what: 'the login answer' });
    expect(frames.shift()?.frame).toEqual({ path: '/login', code: 200 });
    return c;
  };
  /** Samples of a monitor, 50 ms of the app's clock apart, with a changing heart rate. */
  const stream = async (deviceId: string, count: number, everyMs = 0) => {
    for (let i = 0; i < count; i++) {
      clock.advance(50);
      await streamVitals(app, deviceId, { hr: 60 + (i % 20) });
      if (everyMs) await sleep(everyMs);
    }
  };
  const followed = (c: Console) => new Set(c.vitals().flatMap((f) => f.rows.map((r) => r.userId)));

  beforeAll(async () => {
    app = await createTestApp('pglite', { clock });
    w = await monitorWorld(app, 'Vit');
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/websocket`;
  });
  afterAll(async () => {
    for (const c of consoles) c.ws.terminate();
    await app?.close();
  });

  it('follows what a socket asks for, minus residents it may not see, and refuses a bad frame', async () => {
    const c = await connect(w.aHome.token);
    const key = await keyOf(w.aHome.token);
    c.send({ path: '/websocket/subscribe/', data: { key, userIds: 'all' } });
    await until(() => c.frames.some((f) => f.frame.path === '/error'), { what: 'the refusal' });
    expect(c.frames.find((f) => f.frame.path === '/error')?.frame).toMatchObject({ code: 400 });

    c.send({ path: '/websocket/subscribe/', data: { key, userIds: [w.ids.ada, w.ids.fay, 2_000_000_000] } });
    await stream(w.devices.fay, 3);
    await stream(w.devices.ada, 3);
    await until(() => c.vitals().length > 0, { what: 'a vitals frame' });
    await stream(w.devices.fay, 3);
    await sleep(1_200);
    expect([...followed(c)]).toEqual([w.ids.ada]);
    expect(c.vitals()[0]?.rows[0]).toMatchObject({
      deviceId: w.devices.ada,
      online: true,
      heartRate: expect.any(Number),
    });
    // [] stops.
    c.send({ path: '/websocket/subscribe/', data: { key, userIds: [] } });
    await sleep(100);
    const before = c.vitals().length;
    await stream(w.devices.ada, 3);
    await sleep(1_200);
    expect(c.vitals()).toHaveLength(before);
  });

  it('sends at most one frame a second per socket, with only the rows that changed', async () => {
    const c = await connect(w.aHome.token);
    const key = await keyOf(w.aHome.token);
    c.send({ path: '/websocket/subscribe/', data: { key, userIds: [w.ids.ada, w.ids.bert] } });
    await until(() => c.vitals().length > 0, { what: 'the first frame' });
    // The first frame has every followed resident with a monitor, changed or not.
    expect(
      c
        .vitals()[0]
        ?.rows.map((r) => r.userId)
        .sort(),
    ).toEqual([w.ids.ada, w.ids.bert].sort());
    // Ada's monitor speaks every 50 ms for 2.5 s; Bert's stays silent.
    await stream(w.devices.ada, 50, 50);
    await sleep(1_200);
    const frames = c.vitals();
    expect(frames.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < frames.length; i++) {
      expect((frames[i]?.at ?? 0) - (frames[i - 1]?.at ?? 0)).toBeGreaterThan(800);
      expect(frames[i]?.rows.map((r) => r.userId)).toEqual([w.ids.ada]);
    }
    // Nothing changed: no frame.
    await sleep(1_200);
    expect(c.vitals()).toHaveLength(frames.length);
  });

  it('applies POST /websocket/subscribe/ to every socket of the caller’s session, and to no other', async () => {
    const token = await app.login(w.aHome.userName, w.aHome.password);
    const first = await connect(token);
    const second = await connect(token);
    const otherSession = await connect(w.aHome.token);
    const res = await app.call(monitorCalls.subscribeVitals, { userIds: [w.ids.bert, w.ids.fay] }, { token });
    expect(res.data).toEqual({ subscribed: 1 });
    await stream(w.devices.bert, 2);
    await until(() => first.vitals().length > 0 && second.vitals().length > 0, { what: 'frames on both sockets' });
    for (const c of [first, second]) {
      expect([...followed(c)]).toEqual([w.ids.bert]);
      expect(c.vitals()[0]?.rows[0]).toMatchObject({ deviceId: w.devices.bert, online: true });
    }
    await sleep(1_200);
    expect(otherSession.vitals()).toEqual([]);
  });
});
