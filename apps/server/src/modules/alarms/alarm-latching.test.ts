import { alarmCalls, RELEASE_KIND, topicOf } from '@vigil/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { PublishedEvent } from '../../core/events.ts';
import { alarms } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../devices/device-test-support.ts';
import { ALARM_EVENT } from '../../core/event-catalogue.ts';

const { alarmLog, alarmLogUnDeal, alarmRelieve, saveAlertLevel } = alarmCalls;

/**
 * Alarms that latch (IEC 60601-1-8) and conditions handled while they hold (issue 29): a level 1
 * alarm whose condition clears by itself stays pending until a person handles it, and handling a
 * condition that still holds mutes it for the level's snooze, not for ever. On the engine's
 * simulated clock, through the ingest, the store and the calls the consoles use.
 */
describeEachDb('alarms that latch until a person handles them (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  const clock = new ManualClock(new Date('2026-11-29T01:00:00Z'));
  const published: PublishedEvent[] = [];
  let seq = 1;

  const send = (deviceId: string, kind: 'event' | 'telemetry', body: Record<string, unknown>) =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, kind),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, ...body })),
    );
  const vitals = async (deviceId: string, seconds: number, sample: Record<string, unknown>, stepS = 1) => {
    for (let s = 0; s < seconds; s += stepS) {
      await send(deviceId, 'telemetry', { hr: 70, rr: 14, inBed: true, asleep: true, move: 5, ...sample });
      clock.advance(stepS * 1000);
    }
    await app.services.alarms.runner.flush();
  };
  const alarmsOf = (deviceId: string, type: string) =>
    app.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, deviceId), eq(alarms.alertType, type)))
      .orderBy(asc(alarms.id));
  const token = () => app.login(w.aHome.userName, w.aHome.password);
  const pending = async (keyWord: string) =>
    (await app.call(alarmLogUnDeal, { keyWord, pageSize: 100 }, { token: await token() })).data?.rows ?? [];
  const handle = async (id: number) =>
    app.call(alarmRelieve, { id, reason: 'CHECKED', result: 'NO_ABNORMALITY' }, { token: await token() });

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    app.services.events.subscribe((e) => published.push(e), Object.values(ALARM_EVENT));
    w = await deviceWorld(app, 'Latch');
    const rows = [
      { deviceId: 'LAT-SLP1', deviceType: T.sleep },
      { deviceId: 'LAT-SLP2', deviceType: T.sleep },
      { deviceId: 'LAT-SOS1', deviceType: T.sos },
      { deviceId: 'LAT-RAD1', deviceType: T.fallAbroad },
      { deviceId: 'LAT-IR1', deviceType: T.infrared },
    ];
    await loadStock(app, w.admin, rows);
    for (const { deviceId, deviceType } of rows) await addDevice(app, w.aHome.token, deviceId, deviceType);
    for (const [i, deviceId] of ['LAT-SLP1', 'LAT-SLP2'].entries()) {
      const bed = await placeBed(app, w.aHome.id, {
        area: `Latch Area ${i}`,
        room: `Latch 10${i}`,
        bed: `Latch 10${i}-1`,
        resident: `Resident ${i}`,
      });
      await linkBed(app, bed.bedId, deviceId);
    }
    await app.services.gateway.directory.load();
    await app.services.alarms.watch.load();
  });
  afterAll(() => app?.close());

  it('a 45 s breathing stop leaves a level 1 alarm pending after it clears; handling it keeps the release kind', async () => {
    await vitals('LAT-SLP1', 45, { rr: 0 });
    await vitals('LAT-SLP1', 1, { rr: 14 });
    const [alarm] = await alarmsOf('LAT-SLP1', 'BREATH_STOP');
    expect(alarm).toMatchObject({ level: 1, releaseKind: RELEASE_KIND.automatic, awaitingAck: true });
    const [card] = await pending('LAT-SLP1');
    expect(card).toMatchObject({
      id: alarm?.id,
      alertType: 'BREATH_STOP',
      awaitingAck: true,
      isRelieve: true,
      releaseKind: 2,
      clearedTime: Math.floor((alarm?.clearedAt?.getTime() ?? 0) / 1000),
      duration: 45,
      // What happened, not rewritten by the recovery; the recovery has its own text.
      text: expect.stringMatching(/breath/i),
      releaseText: expect.stringMatching(/breathing again/i),
    });
    expect(card?.text).not.toBe(card?.releaseText);
    // The consoles were told it cleared, and that it waits for a person.
    const released = published.flatMap((e) =>
      e.type === ALARM_EVENT.released && e.payload.alarm.id === alarm?.id ? [e.payload.alarm] : [],
    );
    expect(released[0]?.awaitingAck).toBe(true);

    clock.advance(60_000);
    const handled = await handle(alarm?.id ?? 0);
    expect(handled.status, handled.msg).toBe(200);
    expect(handled.data).toMatchObject({ releaseKind: 2, awaitingAck: false, relieveReason: 'CHECKED' });
    expect(handled.data?.dealTime).toBe(Math.floor(clock.now().getTime() / 1000));
    expect(await pending('LAT-SLP1')).toEqual([]);
    const processed = await app.call(alarmLog, { keyWord: 'LAT-SLP1' }, { token: await token() });
    expect(processed.data?.rows.map((r) => [r.id, r.releaseKind, r.awaitingAck])).toEqual([[alarm?.id, 2, false]]);
    // Handled once: a second terminal is told so.
    expect((await handle(alarm?.id ?? 0)).status).not.toBe(200);
  });

  it('a new spell while the last one waits is a second alarm; handling the first leaves the second open', async () => {
    await vitals('LAT-SLP1', 35, { rr: 0 });
    await vitals('LAT-SLP1', 1, { rr: 14 });
    await vitals('LAT-SLP1', 35, { rr: 0 });
    const [first, second] = await alarmsOf('LAT-SLP1', 'BREATH_STOP').then((rows) => rows.slice(-2));
    expect(first).toMatchObject({ awaitingAck: true, releaseKind: 2 });
    expect(second).toMatchObject({ awaitingAck: false, releaseKind: 0 });
    expect((await handle(first?.id ?? 0)).status).toBe(200);
    expect(app.services.alarms.engine.openTypes('LAT-SLP1').has('BREATH_STOP')).toBe(true);
    await vitals('LAT-SLP1', 1, { rr: 14 });
    expect((await alarmsOf('LAT-SLP1', 'BREATH_STOP')).at(-1)).toMatchObject({ releaseKind: 2, awaitingAck: true });
  });

  it('level 2 latches only where the provider says so', async () => {
    await vitals('LAT-SLP2', 125, { hr: 150 }, 5);
    await vitals('LAT-SLP2', 1, { hr: 70 });
    expect((await alarmsOf('LAT-SLP2', 'HEART_ABNORMAL')).at(-1)).toMatchObject({
      level: 2,
      releaseKind: 2,
      awaitingAck: false,
    });
    const saved = await app.call(
      saveAlertLevel,
      { alertTypeL2: { pc: true, globalVoiceWay: 2, latch: true } },
      { token: await token() },
    );
    expect(saved.data?.alertTypeL2).toMatchObject({ latch: true });
    // Level 1 always latches, whatever a client sends.
    const forced = await app.call(
      saveAlertLevel,
      { alertTypeL1: { pc: true, globalVoiceWay: 3, latch: false } },
      { token: await token() },
    );
    expect(forced.data?.alertTypeL1.latch).toBe(true);
    await until(() => app.services.alarms.watch.rulesOf(w.aHome.id, null).latch[2], { what: 'the settings reloaded' });
    await vitals('LAT-SLP2', 125, { hr: 150 }, 5);
    await vitals('LAT-SLP2', 1, { hr: 70 });
    expect((await alarmsOf('LAT-SLP2', 'HEART_ABNORMAL')).at(-1)).toMatchObject({ releaseKind: 2, awaitingAck: true });
    await app.call(
      saveAlertLevel,
      { alertTypeL2: { pc: true, globalVoiceWay: 2, latch: false } },
      { token: await token() },
    );
    await until(() => !app.services.alarms.watch.rulesOf(w.aHome.id, null).latch[2], { what: 'the settings reloaded' });
  });

  it('a release by a person at the device acknowledges; the radar cancelling a fall latches', async () => {
    await send('LAT-SOS1', 'event', { event: 'sos' });
    await send('LAT-SOS1', 'event', { event: 'device_release' });
    expect((await alarmsOf('LAT-SOS1', 'SOS')).at(-1)).toMatchObject({ releaseKind: 3, awaitingAck: false });
    await send('LAT-RAD1', 'event', { event: 'fall' });
    await send('LAT-RAD1', 'event', { event: 'fall_cancelled' });
    const [fall] = await alarmsOf('LAT-RAD1', 'FALL');
    expect(fall).toMatchObject({ releaseKind: 3, awaitingAck: true });
    expect((await pending('LAT-RAD1')).map((r) => [r.alertType, r.awaitingAck])).toEqual([['FALL', true]]);
  });

  it('a condition handled while it holds is raised again after the level’s snooze, not before', async () => {
    await vitals('LAT-SLP2', 125, { hr: 150 }, 5);
    const [open] = (await alarmsOf('LAT-SLP2', 'HEART_ABNORMAL')).filter((a) => a.releaseKind === 0);
    expect(open).toBeDefined();
    expect((await handle(open?.id ?? 0)).status).toBe(200);
    // Still abnormal: muted for level 2's snooze (30 minutes).
    await vitals('LAT-SLP2', 29 * 60, { hr: 150 }, 20);
    expect((await alarmsOf('LAT-SLP2', 'HEART_ABNORMAL')).filter((a) => a.releaseKind === 0)).toEqual([]);
    await vitals('LAT-SLP2', 2 * 60, { hr: 150 }, 20);
    const [again] = (await alarmsOf('LAT-SLP2', 'HEART_ABNORMAL')).filter((a) => a.releaseKind === 0);
    expect(again).toBeDefined();
    expect(again?.id).not.toBe(open?.id);
    // It has held since before the handling.
    expect(again?.startedAt.getTime()).toBe(open?.startedAt.getTime());
    await vitals('LAT-SLP2', 1, { hr: 70 });
  });

  it('an empty room handled is not raised again a second later, but after the snooze if still empty', async () => {
    await send('LAT-IR1', 'event', { event: 'motion' });
    clock.advance(12 * 3_600_000 + 60_000);
    await until(async () => (await alarmsOf('LAT-IR1', 'NO_MOTION')).length === 1, {
      timeoutMs: 10_000,
      what: 'the empty-room alarm',
    });
    const [empty] = await alarmsOf('LAT-IR1', 'NO_MOTION');
    expect((await handle(empty?.id ?? 0)).status).toBe(200);
    clock.advance(5_000);
    // The runner's clock ticks every second: two ticks later, still one alarm.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await app.services.alarms.runner.flush();
    expect(await alarmsOf('LAT-IR1', 'NO_MOTION')).toHaveLength(1);
    clock.advance(31 * 60_000);
    await until(async () => (await alarmsOf('LAT-IR1', 'NO_MOTION')).length === 2, {
      timeoutMs: 10_000,
      what: 'the empty-room alarm again after the snooze',
    });
  });
});
