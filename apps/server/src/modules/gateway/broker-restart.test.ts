import { randomBytes } from 'node:crypto';
import { topicOf } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { hasMosquitto, PrivateMosquitto } from '../../test/private-mosquitto.ts';
import { until } from '../../test/until.ts';
import { ExternalBroker } from './broker/external-broker.ts';
import { addDevice, deviceWorld, loadStock, T } from '../devices/device-test-support.ts';

const skip = !process.env.MQTT_URL || !hasMosquitto();

/**
 * Mosquitto with persistence, restarted under a running instance: it restores the instance's
 * persistent sessions (CONNACK with a session present) without their shared subscriptions. The
 * instance must subscribe again on every CONNACK, or it hears nothing from any device while its
 * socket looks healthy. The broker is one of the test's own (restarting the machine's would
 * disturb everything else on it); it runs where an MQTT broker is part of the set-up (MQTT_URL).
 */
describe.skipIf(skip)(
  `an external broker restarted with persistence${skip ? ' — skipped: needs MQTT_URL and /usr/sbin/mosquitto' : ''}`,
  () => {
    const run = randomBytes(3).toString('hex');
    const DEVICE = `RST-${run}`.toUpperCase();
    let broker: PrivateMosquitto;
    let app: TestApp;
    let device: MqttClient;
    let seq = 0;

    const storedSeqs = new Set<number>();
    const stored = async () => {
      const rows = await app.database.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, DEVICE));
      for (const row of rows) if (row.seq !== null) storedSeqs.add(Number(row.seq));
      return storedSeqs.size;
    };
    const readiness = async () => (await app.app.inject({ url: '/readyz' })).json<{ ingest: { broker: string } }>();
    const press = () =>
      device.publishAsync(
        topicOf(DEVICE, 'event'),
        JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event: 'sos' }),
        {
          qos: 1,
        },
      );

    beforeAll(async () => {
      broker = await PrivateMosquitto.start();
      app = await createTestApp('pglite', {
        env: { MQTT_URL: broker.url, MQTT_SHARE_GROUP: `rst-${run}`, MQTT_CLIENT_ID: `vigil-rst-${run}` },
      });
      const w = await deviceWorld(app, `Rst${run}`);
      await loadStock(app, w.admin, [{ deviceId: DEVICE, deviceType: T.sos }]);
      await addDevice(app, w.aHome.token, DEVICE, T.sos);
      await app.services.gateway.directory.load();
      // As devices do (docs/device-protocol.md): a retained status, and the same topic as a retained last will.
      device = await connectAsync(broker.url, {
        clientId: DEVICE,
        reconnectPeriod: 500,
        will: {
          topic: topicOf(DEVICE, 'status'),
          payload: Buffer.from(JSON.stringify({ ts: Date.now() / 1000, online: false })),
          qos: 1,
          retain: true,
        },
      });
      await device.publishAsync(topicOf(DEVICE, 'status'), JSON.stringify({ ts: Date.now() / 1000, online: true }), {
        qos: 1,
        retain: true,
      });
    }, 60_000);

    afterAll(async () => {
      device?.end(true);
      const link = app?.services.gateway.broker;
      if (link instanceof ExternalBroker) await link.endSession().catch(() => undefined);
      await app?.close();
      await broker?.close();
    });

    it('takes device events again after the broker restarts (subscribed on every CONNACK), and no replayed will', async () => {
      await until(async () => (await readiness()).ingest.broker === 'connected', { what: 'the canary round trip' });
      await press();
      await until(async () => (await stored()) === 1, { what: 'the first event stored' });

      await broker.restart();
      await until(() => device.connected, { timeoutMs: 10_000, what: 'the device reconnected' });
      // Pressed again until taken: on the old code no press after the restart was ever stored.
      await until(
        async () => {
          await press();
          return (await stored()) >= 2;
        },
        { timeoutMs: 20_000, intervalMs: 500, what: 'an event stored after the restart' },
      );
      await until(async () => (await readiness()).ingest.broker === 'connected', {
        timeoutMs: 20_000,
        what: 'ready again',
      });
      // The broker replayed the will it stored when it stopped: stale, so the device was never offline.
      const offline = (
        await app.database.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, DEVICE))
      ).filter((e) => e.event === 'offline');
      expect(offline).toEqual([]);
      const first = seq + 1;
      for (let i = 0; i < 10; i++) await press();
      const pressed = Array.from({ length: 10 }, (_, i) => first + i);
      await until(async () => (await stored()) > 0 && pressed.every((n) => storedSeqs.has(n)), {
        what: 'every press after the restart stored',
      });
    }, 90_000);

    it('says the broker is unreachable while it is down', async () => {
      await broker.stop();
      await until(async () => (await readiness()).ingest.broker === 'unreachable', { what: 'unreachable' });
      expect((await app.app.inject({ url: '/readyz' })).statusCode).toBe(503);
      await broker.restart();
      await until(async () => (await readiness()).ingest.broker === 'connected', {
        timeoutMs: 20_000,
        what: 'connected again',
      });
    }, 60_000);
  },
);
