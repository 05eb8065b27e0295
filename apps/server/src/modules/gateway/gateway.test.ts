import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { and, asc, eq } from 'drizzle-orm';
import { deviceCalls, MAX_PAYLOAD_BYTES, topicOf } from '@vigil/contract';
import { ManualClock } from '../../clock.ts';
import { OFFLINE_GRACE_MS } from './ingest/presence.ts';
import { deviceCommands, deviceEvents, deviceMinutes, deviceSeconds, devices, deviceStock } from '../../db/schema.ts';
import { createTestApp, dbTargets, type TestApp } from '../../test/harness.ts';
import { BURST } from './broker/device-gate.ts';
import { EmbeddedBroker } from './broker/embedded-broker.ts';
import { connectFrom as connectMqtt } from './broker/mqtt-test-support.ts';
import { hashDeviceSecret, verifyDeviceSecret, VerifiedSecrets } from './credentials/secret.ts';
import { DeviceGate } from './broker/device-gate.ts';
import { DeviceSecrets } from './credentials/device-secrets.ts';
import { RateLimitedLog } from '../../core/log.ts';
import { IngestRepository } from './ingest/ingest.repository.ts';
import { readSecond } from './ingest/seconds-of-minute.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../devices/device-test-support.ts';
import { until } from '../../test/until.ts';

const SECRET = 'gateway-test-secret-0001';
const nowS = () => Date.now() / 1000;

describe.each(dbTargets())('device gateway over the embedded broker on %s', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let port: number;
  let resident: { bedId: number; residentId: number | null };
  const clock = new ManualClock(new Date());
  const clients: MqttClient[] = [];

  const connect = async (deviceId: string, password = SECRET, extra: Parameters<typeof connectAsync>[1] = {}) => {
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: deviceId,
      username: deviceId,
      password,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      ...extra,
    });
    clients.push(client);
    return client;
  };
  /** A connection from another loopback address: a stranger elsewhere on the network. */
  const connectFrom = (localAddress: string, deviceId: string, password = SECRET) =>
    connectMqtt(port, localAddress, deviceId, password, clients);
  const eventsOf = (deviceId: string) =>
    app.database.db
      .select()
      .from(deviceEvents)
      .where(eq(deviceEvents.deviceId, deviceId))
      .orderBy(asc(deviceEvents.id));
  const gateway = () => app.services.gateway;
  const counter = async (name: string, labels: Record<string, string> = {}) => {
    const metric = await gateway().metrics.registry.getSingleMetric(name)?.get();
    return (metric?.values ?? [])
      .filter((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val))
      .reduce((sum, v) => sum + v.value, 0);
  };

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    w = await deviceWorld(app, 'Gw');
    await loadStock(app, w.admin, [
      { deviceId: 'GW-S1', deviceType: T.sleep },
      { deviceId: 'GW-S2', deviceType: T.sleep },
      { deviceId: 'GW-R1', deviceType: T.fallDomestic },
      { deviceId: 'GW-H1', deviceType: T.gateway },
      { deviceId: 'GW-D1', deviceType: T.door },
      { deviceId: 'GW-NOSECRET', deviceType: T.sos },
    ]);
    const hash = await hashDeviceSecret(SECRET);
    for (const id of ['GW-S1', 'GW-S2', 'GW-R1', 'GW-H1', 'GW-D1']) {
      await app.database.db.update(deviceStock).set({ secretHash: hash }).where(eq(deviceStock.deviceId, id));
    }
    for (const [id, type] of [
      ['GW-S1', T.sleep],
      ['GW-S2', T.sleep],
      ['GW-R1', T.fallDomestic],
      ['GW-H1', T.gateway],
      ['GW-D1', T.door],
    ] as const) {
      await addDevice(app, w.aHome.token, id, type);
    }
    const [host] = await app.database.db.select().from(devices).where(eq(devices.deviceId, 'GW-H1'));
    await app.database.db.update(devices).set({ gatewayId: host?.id }).where(eq(devices.deviceId, 'GW-D1'));
    resident = await placeBed(app, w.aHome.id, { area: 'Gw Area', room: 'Gw 101', bed: 'Gw 101-1', resident: 'Ada' });
    await linkBed(app, resident.bedId, 'GW-S1');
    await gateway().directory.load();
    const broker = gateway().broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    port = broker.port;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await app?.close();
  });

  it('refuses unknown devices, devices without a secret and wrong secrets at CONNACK, and counts them', async () => {
    await expect(connect('GW-UNKNOWN')).rejects.toThrow(/Not authorized/i);
    await expect(connect('GW-NOSECRET')).rejects.toThrow(/Not authorized/i);
    await expect(connect('GW-S2', 'wrong-secret-000000')).rejects.toThrow(/Not authorized/i);
    await expect(connect('GW-S2', SECRET, { username: 'GW-S1' })).rejects.toThrow(/Not authorized/i);
    expect(await counter('vigil_device_connects_refused_total', { reason: 'unknown' })).toBeGreaterThanOrEqual(1);
    expect(await counter('vigil_device_connects_refused_total', { reason: 'no_secret' })).toBeGreaterThanOrEqual(1);
    expect(await counter('vigil_device_connects_refused_total', { reason: 'bad_secret' })).toBeGreaterThanOrEqual(1);
  });

  it('does one hash verification of the same cost for an unknown ID, an ID without a secret and a wrong secret', async () => {
    const checked: string[] = [];
    const secrets = new VerifiedSecrets(100, (secret, hash) => {
      checked.push(hash.split('$').slice(0, 4).join('$'));
      return verifyDeviceSecret(secret, hash);
    });
    const quiet = new RateLimitedLog({ info: () => undefined, warn: () => undefined, error: () => undefined });
    const gate = new DeviceGate(
      new DeviceSecrets(app.database.db),
      gateway().directory,
      secrets,
      clock,
      gateway().metrics,
      quiet,
    );
    const [stored] = await app.database.db.select().from(deviceStock).where(eq(deviceStock.deviceId, 'GW-S1'));
    const cost = (stored?.secretHash ?? '').split('$').slice(0, 4).join('$');
    for (const [deviceId, reason] of [
      ['GW-NEVER-SEEN', 'unknown'],
      ['GW-NOSECRET', 'no_secret'],
      ['GW-S1', 'bad_secret'],
    ] as const) {
      checked.length = 0;
      expect(await gate.authenticate(deviceId, deviceId, 'wrong-secret-0000000', '192.0.2.1')).toEqual({
        ok: false,
        reason,
      });
      expect(checked, reason).toEqual([cost]);
    }
  });

  it('checks a CONNECT against the secret in memory, and a secret changed here or elsewhere holds at once', async () => {
    const stored = new DeviceSecrets(app.database.db);
    await stored.load();
    const quiet = new RateLimitedLog({ info: () => undefined, warn: () => undefined, error: () => undefined });
    const gate = new DeviceGate(stored, gateway().directory, new VerifiedSecrets(), clock, gateway().metrics, quiet);
    const setHash = async (secret: string) =>
      app.database.db
        .update(deviceStock)
        .set({ secretHash: await hashDeviceSecret(secret) })
        .where(eq(deviceStock.deviceId, 'GW-S2'));
    expect(await stored.hashOf('GW-S2')).toMatchObject({ fromMemory: true });
    expect(await gate.authenticate('GW-S2', 'GW-S2', SECRET, '192.0.2.9')).toEqual({ ok: true, deviceId: 'GW-S2' });

    // Set on another instance, its announcement not (yet) here: the new secret gets in at once.
    const elsewhere = 'gateway-test-secret-elsewhere';
    await setHash(elsewhere);
    expect(await gate.authenticate('GW-S2', 'GW-S2', elsewhere, '192.0.2.9')).toEqual({ ok: true, deviceId: 'GW-S2' });
    expect(await gate.authenticate('GW-S2', 'GW-S2', SECRET, '192.0.2.9')).toEqual({ ok: false, reason: 'bad_secret' });

    // Rotated through the API: announced in its transaction, and the gate of the running server
    // (which held the old hash in memory) refuses the old secret at once.
    expect((await connect('GW-S2')).connected).toBe(true);
    // Registered long ago: outside the read of recent imports that a device not in memory makes.
    await app.database.db
      .update(deviceStock)
      .set({ importedAt: new Date(Date.now() - 86_400_000) })
      .where(eq(deviceStock.deviceId, 'GW-S2'));
    const rotated = await app.call(deviceCalls.deviceStockSetSecret, { deviceId: 'GW-S2' }, { token: w.admin });
    expect(rotated.status).toBe(200);
    const fresh = (rotated.data as { secret: string }).secret;
    await expect(connectFrom('127.0.0.6', 'GW-S2')).rejects.toThrow(/Not authorized/i);
    const device = await connectFrom('127.0.0.6', 'GW-S2', fresh);
    await device.endAsync();
    await setHash(SECRET);
    clock.advance(61_000);
  });

  it('reads the entries of many devices connecting at once, not in memory yet, with one query', async () => {
    let selects = 0;
    const db = app.database.db;
    const counted = new Proxy(db, {
      get: (target, name) => {
        if (name === 'select') selects++;
        return Reflect.get(target, name, target) as unknown;
      },
    });
    const stored = new DeviceSecrets(counted);
    const ids = ['GW-S1', 'GW-S2', 'GW-R1', 'GW-H1', 'GW-D1', 'GW-NOSECRET', 'GW-NEVER-SEEN'];
    const found = await Promise.all(ids.map((id) => stored.hashOf(id)));
    expect(selects).toBe(1);
    expect(found.map((f) => (f.hash === undefined ? 'unknown' : f.hash === null ? 'none' : 'hash'))).toEqual([
      'hash',
      'hash',
      'hash',
      'hash',
      'hash',
      'none',
      'unknown',
    ]);
    // Now in memory: no query.
    expect(await stored.hashOf('GW-S1')).toMatchObject({ fromMemory: true });
    expect(selects).toBe(1);
  });

  it('a stranger’s failures lock out the stranger’s address, never the device connecting with its secret', async () => {
    // Many wrong secrets for GW-R1 from another address (issue 28: this locked the device out).
    for (let i = 0; i < 30; i++) {
      await expect(connectFrom('127.0.0.2', 'GW-R1', `wrong-secret-${i}-0000000`)).rejects.toThrow(/Not authorized/i);
    }
    // The device, from its own address, still gets in with its secret.
    const device = await connect('GW-R1');
    expect(device.connected).toBe(true);
    await device.endAsync();
    // The stranger's address is refused that ID without a check, even with the right secret.
    const before = await counter('vigil_device_connects_refused_total', { reason: 'rate_limited' });
    await expect(connectFrom('127.0.0.2', 'GW-R1')).rejects.toThrow(/Not authorized/i);
    expect(await counter('vigil_device_connects_refused_total', { reason: 'rate_limited' })).toBe(before + 1);
    // …but not other devices: five failures lock one ID from one address.
    const other = await connectFrom('127.0.0.2', 'GW-S2');
    await other.endAsync();
    clock.advance(61_000);
  });

  it('refuses every ID to an address that guessed at many', async () => {
    for (let i = 0; i < 50; i++) {
      await expect(connectFrom('127.0.0.3', `GW-GUESS-${i}`, 'guess-secret-000000')).rejects.toThrow(/Not authorized/i);
    }
    await expect(connectFrom('127.0.0.3', 'GW-S2')).rejects.toThrow(/Not authorized/i);
    const device = await connectFrom('127.0.0.4', 'GW-S2');
    await device.endAsync();
    clock.advance(61_000);
  });

  it('stores an event before its PUBACK, once, with the bed and resident of the moment, and marks the device online', async () => {
    const device = await connect('GW-S1');
    const event = { ts: nowS(), seq: 100, event: 'fall' };
    await device.publishAsync(topicOf('GW-S1', 'event'), JSON.stringify(event), { qos: 1 });
    // The PUBACK came back: the event is in the database already.
    const stored = (await eventsOf('GW-S1')).filter((e) => e.event === 'fall');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      seq: 100,
      providerId: w.aHome.id,
      bedId: resident.bedId,
      residentId: resident.residentId,
    });
    // A resend of the same (device, seq) is acknowledged and dropped.
    await device.publishAsync(topicOf('GW-S1', 'event'), JSON.stringify(event), { qos: 1 });
    expect((await eventsOf('GW-S1')).filter((e) => e.event === 'fall')).toHaveLength(1);
    expect(await counter('vigil_device_duplicates_total')).toBeGreaterThanOrEqual(1);
    expect(app.services.gateway.live.store.get('GW-S1')?.online).toBe(true);
    await until(async () => (await eventsOf('GW-S1')).some((e) => e.event === 'online'));
  });

  it('publishes stored events and vitals on the live feed', async () => {
    const seen: string[] = [];
    const off = gateway().feed.subscribe((item) => {
      if (item.kind === 'event') seen.push(item.event.event);
      if (item.kind === 'vitals') seen.push(`hr:${item.telemetry.hr}`);
    });
    const device = await connect('GW-S2');
    await device.publishAsync(
      topicOf('GW-S2', 'telemetry'),
      JSON.stringify({ ts: nowS(), seq: 1, hr: 58, rr: 13, inBed: true, asleep: true, move: 3 }),
      { qos: 1 },
    );
    await device.publishAsync(topicOf('GW-S2', 'event'), JSON.stringify({ ts: nowS(), seq: 2, event: 'sos' }), {
      qos: 1,
    });
    off();
    expect(seen).toEqual(expect.arrayContaining(['hr:58', 'sos']));
    expect(gateway().feed.latestVitals('GW-S2')?.telemetry.hr).toBe(58);
  });

  it('lets a gateway host speak for its paired sub-devices and nobody for another device', async () => {
    const host = await connect('GW-H1');
    await host.publishAsync(
      topicOf('GW-D1', 'event'),
      JSON.stringify({ ts: nowS(), seq: 7, event: 'door', open: true }),
      { qos: 1 },
    );
    expect((await eventsOf('GW-D1')).map((e) => [e.event, e.detail])).toContainEqual(['door', { open: true }]);

    const intruder = await connect('GW-R1');
    const closed = new Promise<void>((resolve) => intruder.once('close', () => resolve()));
    intruder.publish(topicOf('GW-S1', 'event'), JSON.stringify({ ts: nowS(), seq: 999, event: 'sos' }), { qos: 1 });
    await closed;
    expect((await eventsOf('GW-S1')).filter((e) => e.seq === 999)).toHaveLength(0);
    expect(await counter('vigil_device_publishes_refused_total', { reason: 'topic' })).toBeGreaterThanOrEqual(1);
  });

  it('drops bad messages with a counted reason and keeps the device connected', async () => {
    const device = await connect('GW-S2');
    const bad = [
      '{not json',
      JSON.stringify({ ts: nowS(), event: 'fall' }),
      JSON.stringify({ ts: nowS() + 3600, seq: 50, event: 'fall' }),
      JSON.stringify({ ts: nowS(), seq: 51, event: 'explode' }),
      JSON.stringify({ ts: nowS(), seq: 52, event: 'fall', extra: 1 }),
      'x'.repeat(MAX_PAYLOAD_BYTES + 1),
    ];
    for (const payload of bad) await device.publishAsync(topicOf('GW-S2', 'event'), payload, { qos: 1 });
    expect(device.connected).toBe(true);
    for (const reason of ['json', 'seq_missing', 'ts_future', 'unknown_event', 'schema', 'oversize']) {
      expect(await counter('vigil_device_messages_dropped_total', { reason }), reason).toBeGreaterThanOrEqual(1);
    }
    expect((await eventsOf('GW-S2')).filter((e) => [50, 51, 52].includes(e.seq ?? -1))).toEqual([]);
  });

  it('drops telemetry over a device’s rate and refuses (never acknowledges) events over it', async () => {
    const device = await connect('GW-S2');
    const before = await counter('vigil_device_messages_dropped_total', { reason: 'rate_limited' });
    for (let i = 0; i < BURST + 100; i++) {
      device.publish(
        topicOf('GW-S2', 'telemetry'),
        JSON.stringify({ ts: nowS(), seq: 10_000 + i, hr: 60, rr: 14, inBed: true, asleep: true, move: 0 }),
        { qos: 0 },
      );
    }
    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    device.publish(topicOf('GW-S2', 'event'), JSON.stringify({ ts: nowS(), seq: 20_000, event: 'sos' }), { qos: 1 });
    await closed;
    expect(await counter('vigil_device_messages_dropped_total', { reason: 'rate_limited' })).toBeGreaterThan(before);
    expect((await eventsOf('GW-S2')).filter((e) => e.seq === 20_000)).toEqual([]);
    // The bucket refills: the device resends the event and it is stored.
    clock.advance(30_000);
    const again = await connect('GW-S2');
    await again.publishAsync(topicOf('GW-S2', 'event'), JSON.stringify({ ts: nowS(), seq: 20_000, event: 'sos' }), {
      qos: 1,
    });
    expect((await eventsOf('GW-S2')).filter((e) => e.seq === 20_000)).toHaveLength(1);
  });

  it('holds events while the database refuses writes, says so on /readyz, and drains after', async () => {
    const device = await connect('GW-S2');
    const repo = IngestRepository.prototype;
    const original = repo.insertEvents;
    let refusing = true;
    repo.insertEvents = function (this: IngestRepository, ...args: Parameters<typeof original>) {
      if (refusing) return Promise.reject(new Error('connection refused (test)'));
      return original.apply(this, args);
    };
    try {
      let acknowledged = false;
      const publish = device
        .publishAsync(topicOf('GW-S2', 'event'), JSON.stringify({ ts: nowS(), seq: 30_000, event: 'sos' }), { qos: 1 })
        .then(() => (acknowledged = true));
      await until(async () => (await app.app.inject({ url: '/readyz' })).statusCode === 503);
      const ready = await app.app.inject({ url: '/readyz' });
      expect(ready.json()).toMatchObject({ status: 'not-ready', ingest: { writing: 'failing' } });
      // Not stored, so not acknowledged: the device still holds its event.
      expect(acknowledged).toBe(false);
      refusing = false;
      await publish;
      expect((await eventsOf('GW-S2')).filter((e) => e.seq === 30_000)).toHaveLength(1);
      await until(async () => (await app.app.inject({ url: '/readyz' })).statusCode === 200);
    } finally {
      repo.insertEvents = original;
    }
  });

  it('delivers a queued command to the connected device and records its answer', async () => {
    const device = await connect('GW-S2');
    await device.subscribeAsync(topicOf('GW-S2', 'cmd'), { qos: 1 });
    const received = new Promise<{ id: number; command: string; params: Record<string, unknown> }>((resolve) =>
      device.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    await until(() => app.services.gateway.live.store.get('GW-S2')?.online === true);
    const queued = await app.call(
      deviceCalls.updateInterval,
      { deviceId: 'GW-S2', interval: 30 },
      { token: w.aHome.token },
    );
    expect(queued.status, queued.msg).toBe(200);
    const command = await received;
    expect(command).toMatchObject({ command: 'interval', params: { interval: 30 } });
    const stateOf = async () =>
      (await app.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, command.id)))[0]?.state;
    await until(async () => (await stateOf()) === 'sent');
    await device.publishAsync(topicOf('GW-S2', 'ack'), JSON.stringify({ id: command.id, ok: true }), { qos: 1 });
    expect(await stateOf()).toBe('acked');
  });

  it('sends commands queued while a device was away when it connects', async () => {
    const queued = await app.call(
      deviceCalls.updateInterval,
      { deviceId: 'GW-R1', interval: 20 },
      { token: w.aHome.token },
    );
    expect(queued.status, queued.msg).toBe(200);
    const device = await connect('GW-R1');
    const received = new Promise<{ id: number; command: string }>((resolve) =>
      device.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    await device.subscribeAsync(topicOf('GW-R1', 'cmd'), { qos: 1 });
    expect(await received).toMatchObject({ command: 'interval' });
    await device.publishAsync(
      topicOf('GW-R1', 'ack'),
      JSON.stringify({ id: (await received).id, ok: false, error: 'busy' }),
      {
        qos: 1,
      },
    );
    const [row] = await app.database.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.deviceId, 'GW-R1'), eq(deviceCommands.command, 'interval')));
    expect(row).toMatchObject({ state: 'failed', error: 'busy' });
  });

  it('goes offline on a clean disconnect, on a lost connection (last will) and after three silent intervals', async () => {
    const clean = await connect('GW-S1');
    await until(() => app.services.gateway.live.store.get('GW-S1')?.online === true);
    await clean.endAsync();
    await until(() => app.services.gateway.live.store.get('GW-S1')?.online === false);
    // A goodbye is announced once the device has not come back within the grace.
    clock.advance(OFFLINE_GRACE_MS);
    await gateway().presence.sweep();
    // (The earlier connection of GW-S1, taken over by this one, went offline as lost.)
    await until(async () =>
      (await eventsOf('GW-S1')).some((e) => e.event === 'offline' && e.detail.reason === 'disconnect'),
    );
    expect(app.services.gateway.live.store.get('GW-S1')?.online).toBe(false);

    const lost = await connect('GW-R1', SECRET, {
      will: {
        topic: topicOf('GW-R1', 'status'),
        payload: Buffer.from(JSON.stringify({ ts: nowS(), online: false })),
        qos: 1,
        retain: true,
      },
    });
    await until(() => app.services.gateway.live.store.get('GW-R1')?.online === true);
    lost.stream.destroy();
    await until(() => app.services.gateway.live.store.get('GW-R1')?.online === false);

    const silent = await connect('GW-S2');
    await silent.publishAsync(
      topicOf('GW-S2', 'status'),
      JSON.stringify({ ts: nowS(), online: true, battery: 80, signal: -60, fw: '1.2.3' }),
      { qos: 1 },
    );
    expect(app.services.gateway.live.store.get('GW-S2')).toMatchObject({
      online: true,
      battery: 80,
      firmwareVersion: '1.2.3',
    });
    // GW-S2 reports every 30 s (the acknowledged interval command); the directory learns it on reload.
    await app.database.db.update(devices).set({ reportInterval: 30 }).where(eq(devices.deviceId, 'GW-S2'));
    await gateway().directory.load();
    clock.advance(89_000);
    await gateway().presence.sweep();
    expect(app.services.gateway.live.store.get('GW-S2')?.online).toBe(true);
    clock.advance(2_000);
    await gateway().presence.sweep();
    expect(app.services.gateway.live.store.get('GW-S2')?.online).toBe(false);
    await until(async () =>
      (await eventsOf('GW-S2')).some((e) => e.event === 'offline' && e.detail.reason === 'silent'),
    );
  });

  it('sums sleep-monitor telemetry into minute rows', async () => {
    const device = await connect('GW-S1');
    const minuteStart = Math.floor(nowS() / 60) * 60 - 120;
    let seq = 1000;
    for (let s = 0; s < 10; s++) {
      await device.publishAsync(
        topicOf('GW-S1', 'telemetry'),
        JSON.stringify({ ts: minuteStart + s, seq: seq++, hr: 60 + s, rr: 14, inBed: true, asleep: s >= 5, move: s }),
        { qos: 1 },
      );
    }
    // Minutes still being summed are not a backlog (/readyz must not count them); the online
    // event of this connection may still be on its way to the database, and that one counts.
    expect(gateway().health().backlog).toBe(gateway().events.pending);
    await gateway().telemetry.flush();
    const [row] = await app.database.db
      .select()
      .from(deviceMinutes)
      .where(and(eq(deviceMinutes.deviceId, 'GW-S1'), eq(deviceMinutes.minute, new Date(minuteStart * 1000))));
    expect(row).toMatchObject({
      samples: 10,
      hrMin: 60,
      hrMax: 69,
      hrAvg: 64.5,
      rrAvg: 14,
      inBedSeconds: 10,
      asleepSeconds: 5,
      moveMax: 9,
      residentId: resident.residentId,
    });

    // The same minute second by second, for the sleep analysis; a late part (a device sending
    // what it buffered) fills only its own seconds.
    for (const s of [20, 21]) {
      await device.publishAsync(
        topicOf('GW-S1', 'telemetry'),
        JSON.stringify({ ts: minuteStart + s, seq: seq++, hr: 80, rr: 16, inBed: false, asleep: false, move: 50 }),
        { qos: 1 },
      );
    }
    await gateway().telemetry.flush(true);
    const [stored] = await app.database.db
      .select()
      .from(deviceSeconds)
      .where(and(eq(deviceSeconds.deviceId, 'GW-S1'), eq(deviceSeconds.minute, new Date(minuteStart * 1000))));
    const seconds = stored?.seconds ?? new Uint8Array();
    expect(readSecond(seconds, 0)).toEqual({ hr: 60, rr: 14, move: 0, inBed: true, asleep: false });
    expect(readSecond(seconds, 9)).toEqual({ hr: 69, rr: 14, move: 9, inBed: true, asleep: true });
    expect(readSecond(seconds, 10)).toBeNull();
    expect(readSecond(seconds, 21)).toEqual({ hr: 80, rr: 16, move: 50, inBed: false, asleep: false });
    expect(stored?.providerId).toBe(row?.providerId);
    expect(stored?.providerId).not.toBeNull();
  });
});
