import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { eq } from 'drizzle-orm';
import { deviceCalls, topicOf } from '@vigil/contract';
import { deviceCommands, deviceEvents } from '../../db/schema.ts';
import { createTestApp, openTestDatabase, type TestApp, type TestDb } from '../../test/harness.ts';
import { ExternalBroker } from './broker/external-broker.ts';
import { IngestRepository } from './ingest/ingest.repository.ts';
import { addDevice, deviceWorld, loadStock, T } from '../devices/device-test-support.ts';
import { until as untilReached } from '../../test/until.ts';

const MQTT_URL = process.env.MQTT_URL;
const target = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * Two server instances on one external broker (Mosquitto in CI), sharing one database: the
 * broker splits the devices' messages between them ($share) and each is processed once.
 * The broker here allows anonymous devices (no HTTP auth plugin): authentication through
 * /mqtt/auth is tested in gateway.routes.test.ts.
 */
describe.skipIf(!MQTT_URL)(
  `two instances on the external broker at MQTT_URL (${target}; skipped without MQTT_URL)`,
  () => {
    const run = randomBytes(3).toString('hex');
    const group = `test-${run}`;
    let testDb: TestDb;
    let a: TestApp;
    let b: TestApp;
    let device: MqttClient;
    let token = '';
    const DEVICE = `EX-${run}`.toUpperCase();

    const eventsOf = async () =>
      (await a.database.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, DEVICE))).filter(
        (e) => e.seq !== null,
      );
    const taken = async (app: TestApp) => {
      const metric = await app.services.gateway.metrics.registry.getSingleMetric('vigil_device_messages_total')?.get();
      return (metric?.values ?? []).reduce((sum, v) => sum + v.value, 0);
    };
    // Two instances and a real broker: slower than in-process deliveries.
    const until = (check: () => Promise<boolean>) => untilReached(check, { timeoutMs: 15_000, intervalMs: 50 });

    beforeAll(async () => {
      testDb = await openTestDatabase(target);
      const env = (name: string) => ({
        MQTT_URL: MQTT_URL ?? '',
        MQTT_SHARE_GROUP: group,
        MQTT_CLIENT_ID: `vigil-${run}-${name}`,
      });
      a = await createTestApp(target, { testDb, env: env('a') });
      b = await createTestApp(target, { testDb, env: env('b') });
      const w = await deviceWorld(a, `Ex${run}`);
      await loadStock(a, w.admin, [{ deviceId: DEVICE, deviceType: T.sleep }]);
      await addDevice(a, w.aHome.token, DEVICE, T.sleep);
      await a.services.gateway.directory.load();
      await b.services.gateway.directory.load();
      device = await connectAsync(MQTT_URL ?? '', { clientId: DEVICE, reconnectPeriod: 0 });
      token = w.aHome.token;
    }, 120_000);

    afterAll(async () => {
      await device?.endAsync(true);
      for (const app of [a, b]) {
        const broker = app?.services.gateway.broker;
        if (broker instanceof ExternalBroker) await broker.endSession();
      }
      await a?.close();
      await b?.close();
      await testDb?.close();
    });

    it('splits the devices’ messages between the instances and stores each event once', async () => {
      const count = 200;
      const base = Date.now() / 1000;
      await Promise.all(
        Array.from({ length: count }, (_, i) =>
          device.publishAsync(topicOf(DEVICE, 'event'), JSON.stringify({ ts: base, seq: i + 1, event: 'motion' }), {
            qos: 1,
          }),
        ),
      );
      // Resent (as after a lost PUBACK): still once.
      await device.publishAsync(topicOf(DEVICE, 'event'), JSON.stringify({ ts: base, seq: 1, event: 'motion' }), {
        qos: 1,
      });
      await until(async () => (await eventsOf()).length >= count);
      await new Promise((r) => setTimeout(r, 300));
      const rows = await eventsOf();
      expect(rows).toHaveLength(count);
      expect(new Set(rows.map((r) => r.seq)).size).toBe(count);
      const [byA, byB] = [await taken(a), await taken(b)];
      expect(byA + byB).toBeGreaterThanOrEqual(count);
      expect(byA).toBeGreaterThan(0);
      expect(byB).toBeGreaterThan(0);
    });

    it('takes telemetry while an event waits for its commit (no head-of-line blocking)', async () => {
      const repo = IngestRepository.prototype;
      const original = repo.insertEvents;
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      repo.insertEvents = async function (this: IngestRepository, ...args: Parameters<typeof original>) {
        await gate;
        return original.apply(this, args);
      };
      try {
        const vitals = new Promise<void>((resolve) => {
          for (const app of [a, b]) {
            app.services.gateway.feed.subscribe(
              (item) => {
                if (item.kind === 'vitals' && item.context.deviceId === DEVICE) resolve();
              },
              ['vitals'],
            );
          }
        });
        const event = device.publishAsync(
          topicOf(DEVICE, 'event'),
          JSON.stringify({ ts: Date.now() / 1000, seq: 5_000, event: 'fall' }),
          { qos: 1 },
        );
        await new Promise((r) => setTimeout(r, 200));
        device.publish(
          topicOf(DEVICE, 'telemetry'),
          JSON.stringify({ ts: Date.now() / 1000, seq: 5_001, hr: 61, rr: 13, inBed: true, asleep: true, move: 1 }),
        );
        await vitals;
        release();
        await event;
      } finally {
        release();
        repo.insertEvents = original;
      }
      await until(async () => (await eventsOf()).some((e) => e.seq === 5_000));
    });

    it('delivers a command through the broker and records the device’s answer', async () => {
      await device.subscribeAsync(topicOf(DEVICE, 'cmd'), { qos: 1 });
      await device.publishAsync(topicOf(DEVICE, 'status'), JSON.stringify({ ts: Date.now() / 1000, online: true }), {
        qos: 1,
      });
      await until(async () => [a, b].some((app) => app.services.gateway.live.store.get(DEVICE)?.online === true));
      const received = new Promise<{ id: number; command: string }>((resolve) =>
        device.once('message', (_t, payload) => resolve(JSON.parse(payload.toString()))),
      );
      // Queued on whichever instance saw the device online.
      const owner = a.services.gateway.live.store.get(DEVICE)?.online ? a : b;
      const res = await owner.call(deviceCalls.restartDevice, { deviceId: DEVICE }, { token });
      expect(res.status, res.msg).toBe(200);
      const command = await received;
      expect(command.command).toBe('restart');
      await device.publishAsync(topicOf(DEVICE, 'ack'), JSON.stringify({ id: command.id, ok: true }), { qos: 1 });
      await until(async () => {
        const [row] = await a.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, command.id));
        return row?.state === 'acked';
      });
    });
  },
);
