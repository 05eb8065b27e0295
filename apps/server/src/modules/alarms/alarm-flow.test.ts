import { RELEASE_KIND, topicOf } from '@vigil/contract';
import { and, asc, eq } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { hashDeviceSecret } from '../gateway/index.ts';
import { OFFLINE_GRACE_MS, EmbeddedBroker } from '../gateway/testing.ts';
import type { PublishedEvent } from '../../core/events.ts';
import { alarms, deviceStock } from '../../db/schema.ts';
import { createTestApp, dbTargets, type TestApp } from '../../test/harness.ts';
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
import { alarmPayload } from './alarm-runner.ts';

const SECRET = 'alarm-flow-secret-00001';

describe.each(dbTargets())('alarms from device messages on %s', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let port: number;
  const clock = new ManualClock(new Date());
  const clients: MqttClient[] = [];
  const published: PublishedEvent[] = [];
  let seq = 1;

  const gateway = () => app.services.gateway;
  const alarmsOf = (deviceId: string) =>
    app.database.db.select().from(alarms).where(eq(alarms.deviceId, deviceId)).orderBy(asc(alarms.id));
  const openOf = (deviceId: string, alertType: string) =>
    app.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, deviceId), eq(alarms.alertType, alertType), eq(alarms.releaseKind, 0)));
  /** A message through the ingest pipeline, as the broker hands it over (what MQTT adds is tested below). */
  const ingest = (deviceId: string, kind: 'event' | 'telemetry' | 'status', body: Record<string, unknown>) =>
    gateway().ingest.handle(
      topicOf(deviceId, kind),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, ...body })),
    );
  const connect = async (deviceId: string) => {
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: deviceId,
      username: deviceId,
      password: SECRET,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    app.services.events.subscribe((e) => published.push(e), Object.values(ALARM_EVENT));
    w = await deviceWorld(app, 'Alm');
    const rows = [
      { deviceId: 'ALM-SOS1', deviceType: T.sos },
      { deviceId: 'ALM-SOS2', deviceType: T.sos },
      { deviceId: 'ALM-SLP1', deviceType: T.sleep },
      { deviceId: 'ALM-SMK1', deviceType: T.smoke },
      { deviceId: 'ALM-DOOR1', deviceType: T.door },
    ];
    await loadStock(app, w.admin, rows);
    const hash = await hashDeviceSecret(SECRET);
    for (const { deviceId, deviceType } of rows) {
      await app.database.db.update(deviceStock).set({ secretHash: hash }).where(eq(deviceStock.deviceId, deviceId));
      await addDevice(app, w.aHome.token, deviceId, deviceType);
    }
    const bed = await placeBed(app, w.aHome.id, {
      area: 'Alm Area',
      room: 'Alm 101',
      bed: 'Alm 101-1',
      resident: 'Ada',
    });
    await linkBed(app, bed.bedId, 'ALM-SLP1');
    await gateway().directory.load();
    const broker = gateway().broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    port = broker.port;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync().catch(() => undefined)));
    await app?.close();
  });

  it('an SOS published over MQTT is a stored level 1 alarm by the time the device has its PUBACK', async () => {
    const client = await connect('ALM-SOS1');
    const ts = clock.now().getTime() / 1000;
    await client.publishAsync(topicOf('ALM-SOS1', 'event'), JSON.stringify({ ts, seq: 1, event: 'sos' }), { qos: 1 });
    // No waiting: acknowledged means the event and its alarm are committed.
    const [alarm] = await alarmsOf('ALM-SOS1');
    expect(alarm).toMatchObject({ alertType: 'SOS', level: 1, count: 1, releaseKind: 0, providerId: w.aHome.id });
    expect(alarm?.eventId).toBeGreaterThan(0);
    await until(() => published.some((e) => e.type === ALARM_EVENT.raised && e.payload.alarm.id === alarm?.id), {
      what: 'the raised alarm published',
    });
    const timeline = await app.services.alarms.repo.timeline(app.database.db, alarm?.id ?? 0);
    expect(timeline.map((t) => t.step)).toEqual(['raised']);

    // Redelivered (same seq and ts): nothing changes. A second press 5 ms later repeats the open alarm.
    await client.publishAsync(topicOf('ALM-SOS1', 'event'), JSON.stringify({ ts, seq: 1, event: 'sos' }), { qos: 1 });
    expect((await alarmsOf('ALM-SOS1')).map((a) => a.count)).toEqual([1]);
    await client.publishAsync(topicOf('ALM-SOS1', 'event'), JSON.stringify({ ts: ts + 0.005, seq: 2, event: 'sos' }), {
      qos: 1,
    });
    expect((await alarmsOf('ALM-SOS1')).map((a) => a.count)).toEqual([2]);
  });

  it('two same-type events 5 ms apart in one batch make one alarm counted twice', async () => {
    const ts = clock.now().getTime() / 1000;
    await Promise.all([
      gateway().ingest.handle(topicOf('ALM-SOS2', 'event'), Buffer.from(JSON.stringify({ ts, seq: 10, event: 'sos' }))),
      gateway().ingest.handle(
        topicOf('ALM-SOS2', 'event'),
        Buffer.from(JSON.stringify({ ts: ts + 0.005, seq: 11, event: 'sos' })),
      ),
    ]);
    expect((await alarmsOf('ALM-SOS2')).map((a) => [a.alertType, a.count])).toEqual([['SOS', 2]]);
  });

  it('the release button releases the alarm at the device (kind 3) and publishes the release', async () => {
    await ingest('ALM-SOS2', 'event', { event: 'device_release' });
    const [alarm] = await alarmsOf('ALM-SOS2');
    expect(alarm).toMatchObject({ releaseKind: RELEASE_KIND.device });
    expect(published.some((e) => e.type === ALARM_EVENT.released && e.payload.alarm.id === alarm?.id)).toBe(true);
  });

  it('smoke raises SMOKE at level 1 and clears it automatically', async () => {
    await ingest('ALM-SMK1', 'event', { event: 'smoke', active: true });
    expect(await openOf('ALM-SMK1', 'SMOKE')).toHaveLength(1);
    await ingest('ALM-SMK1', 'event', { event: 'smoke', active: false });
    const [alarm] = await alarmsOf('ALM-SMK1');
    expect(alarm).toMatchObject({ level: 1, releaseKind: RELEASE_KIND.automatic });
  });

  it('vitals: breathing stopped for 30 s in an occupied bed raises BREATH_STOP, breathing again releases it', async () => {
    for (let i = 0; i <= 30; i++) {
      await ingest('ALM-SLP1', 'telemetry', { hr: 70, rr: 0, inBed: true, asleep: true, move: 5 });
      if (i < 30) clock.advance(1000);
    }
    await app.services.alarms.runner.flush();
    const [alarm] = await openOf('ALM-SLP1', 'BREATH_STOP');
    expect(alarm).toMatchObject({ level: 1, detail: { duration: 30, value: 0 } });
    clock.advance(1000);
    await ingest('ALM-SLP1', 'telemetry', { hr: 70, rr: 14, inBed: true, asleep: true, move: 5 });
    await app.services.alarms.runner.flush();
    expect(await openOf('ALM-SLP1', 'BREATH_STOP')).toEqual([]);
    const steps = await app.services.alarms.repo.timeline(app.database.db, alarm?.id ?? 0);
    expect(steps.map((s) => s.step)).toEqual(['raised', 'released']);
  });

  it('an alarm another instance raised is held here and released here when its condition clears here', async () => {
    // With an external broker the device's telemetry is shared out between instances.
    const [placed] = await alarmsOf('ALM-SLP1');
    if (!placed) throw new Error('the breathing alarm of the test above');
    const [elsewhere] = await app.services.alarms.repo.raise(app.database.db, [
      {
        ...placed,
        alertType: 'HEART_ABNORMAL',
        level: 2,
        startedAt: clock.now(),
        at: clock.now(),
        detail: {},
        eventId: null,
        counts: false,
      },
    ]);
    if (!elsewhere) throw new Error('raised elsewhere');
    app.services.events.publish([
      {
        id: 0,
        at: clock.now(),
        origin: 'instance-b',
        type: ALARM_EVENT.raised,
        providerId: elsewhere.alarm.providerId,
        payload: { alarm: alarmPayload(elsewhere.alarm) },
      },
    ]);
    expect(app.services.alarms.engine.openTypes('ALM-SLP1').has('HEART_ABNORMAL')).toBe(true);
    clock.advance(1000);
    await ingest('ALM-SLP1', 'telemetry', { hr: 70, rr: 14, inBed: true, asleep: true, move: 5 });
    await app.services.alarms.runner.flush();
    expect(await openOf('ALM-SLP1', 'HEART_ABNORMAL')).toEqual([]);
  });

  it('a device gone longer than the grace raises CONNECTION, a blip nothing; back online releases it', async () => {
    const client = await connect('ALM-DOOR1');
    await until(
      () => gateway().presence !== undefined && app.services.gateway.live.store.get('ALM-DOOR1')?.online === true,
      {
        what: 'the door sensor online',
      },
    );
    // A blip: back within the grace, nothing is raised.
    client.stream.destroy();
    await until(() => app.services.gateway.live.store.get('ALM-DOOR1')?.online === false, { what: 'offline' });
    clock.advance(OFFLINE_GRACE_MS / 2);
    const again = await connect('ALM-DOOR1');
    await until(() => app.services.gateway.live.store.get('ALM-DOOR1')?.online === true, { what: 'back' });
    clock.advance(OFFLINE_GRACE_MS);
    await gateway().presence.sweep();
    expect(await alarmsOf('ALM-DOOR1')).toEqual([]);

    // Gone for longer than the grace: raised, from when the connection was lost.
    again.stream.destroy();
    await until(() => app.services.gateway.live.store.get('ALM-DOOR1')?.online === false, { what: 'offline' });
    const lostAt = clock.now().getTime();
    clock.advance(OFFLINE_GRACE_MS);
    await gateway().presence.sweep();
    await until(async () => (await openOf('ALM-DOOR1', 'CONNECTION')).length === 1, { what: 'the offline alarm' });
    expect((await openOf('ALM-DOOR1', 'CONNECTION'))[0]?.startedAt.getTime()).toBe(lostAt);
    await connect('ALM-DOOR1');
    await until(async () => (await openOf('ALM-DOOR1', 'CONNECTION')).length === 0, {
      what: 'the offline alarm released',
    });
    const [alarm] = await alarmsOf('ALM-DOOR1');
    expect(alarm).toMatchObject({ alertType: 'CONNECTION', level: 2, releaseKind: RELEASE_KIND.automatic });
  });
});
