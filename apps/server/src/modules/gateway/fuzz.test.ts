import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { eq } from 'drizzle-orm';
import { DROP_REASONS, parseDeviceMessage, topicOf } from '@vigil/contract';
import { ManualClock } from '../../clock.ts';
import { deviceEvents, deviceStock } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { EmbeddedBroker } from './broker/embedded-broker.ts';
import { hashDeviceSecret } from './credentials/secret.ts';
import { deviceWorld, loadStock, T } from '../devices/device-test-support.ts';

const SECRET = 'fuzz-device-secret-0001';

/** A small deterministic PRNG (mulberry32): the same run every time, so a failure can be replayed. */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const nowS = () => Date.now() / 1000;
const VALID = [
  { topic: 'telemetry', body: { ts: 0, seq: 1, hr: 60, rr: 14, inBed: true, asleep: true, move: 3, rri: [900, 950] } },
  { topic: 'event', body: { ts: 0, seq: 1, event: 'door', open: true } },
  { topic: 'event', body: { ts: 0, seq: 1, event: 'position', lat: 48.1, lng: 11.5, accuracy: 5 } },
  { topic: 'status', body: { ts: 0, online: true, battery: 90, signal: -70, fw: '1.0', hw: 'A' } },
  { topic: 'ack', body: { id: 4, ok: false, error: 'busy' } },
] as const;
const JUNK: unknown[] = [null, true, -1, 1e308, 'x', '', [], {}, [1, 2], { a: 1 }, 'a'.repeat(300), -0, 0.5, NaN];

/** One bad message: a valid one with a field broken, dropped, added, or the bytes mangled. */
const badMessage = (next: () => number): { kind: string; payload: Buffer } => {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const base = pick(VALID);
  const body: Record<string, unknown> = { ...base.body, ts: nowS(), seq: Math.floor(next() * 1e6) };
  const keys = Object.keys(body);
  switch (Math.floor(next() * 8)) {
    case 0:
      body[pick(keys)] = pick(JUNK);
      break;
    case 1:
      delete body[pick(keys)];
      break;
    case 2:
      body[`x${Math.floor(next() * 100)}`] = pick(JUNK);
      break;
    case 3:
      body.ts = pick([nowS() + 3600, nowS() - 30 * 86400, 0, 12345, '1795000000', -1]);
      break;
    case 4:
      body.event = pick(['explode', '', 'FALL', 'fall ', 42]);
      break;
    case 5: {
      const text = JSON.stringify(body);
      const cut = Math.floor(next() * text.length);
      return { kind: base.topic, payload: Buffer.from(text.slice(0, cut) + text.slice(cut + 1)) };
    }
    case 6:
      return { kind: base.topic, payload: Buffer.from(Array.from({ length: 40 }, () => Math.floor(next() * 256))) };
    default:
      return { kind: pick(['telemetry', 'event', 'status', 'ack']), payload: Buffer.from(JSON.stringify(pick(JUNK))) };
  }
  return { kind: base.topic, payload: Buffer.from(JSON.stringify(body)) };
};

describe('fuzz: bad device messages', () => {
  it('the parser never throws and names a known reason for every refusal (20,000 messages)', () => {
    const next = rng(9);
    const reasons = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const { kind, payload } = badMessage(next);
      const result = parseDeviceMessage(`vigil/v1/FZ-1/${kind}`, payload, nowS());
      if (!result.ok) {
        expect(DROP_REASONS).toContain(result.reason);
        reasons.set(result.reason, (reasons.get(result.reason) ?? 0) + 1);
      }
    }
    for (const reason of ['json', 'schema', 'ts_future', 'ts_past', 'unknown_event', 'not_object', 'encoding']) {
      expect(reasons.get(reason) ?? 0, reason).toBeGreaterThan(0);
    }
  });

  describe('through the embedded broker', () => {
    let app: TestApp;
    let port: number;
    const clients: MqttClient[] = [];
    const connect = async (deviceId: string) => {
      const client = await connectAsync(`mqtt://127.0.0.1:${port}`, {
        clientId: deviceId,
        username: deviceId,
        password: SECRET,
        reconnectPeriod: 0,
      });
      clients.push(client);
      return client;
    };

    beforeAll(async () => {
      app = await createTestApp('pglite', { clock: new ManualClock(new Date()) });
      const w = await deviceWorld(app, 'Fz');
      const ids = ['FZ-BAD1', 'FZ-BAD2', 'FZ-BAD3', 'FZ-BAD4', 'FZ-GOOD'];
      await loadStock(
        app,
        w.admin,
        ids.map((deviceId) => ({ deviceId, deviceType: T.sleep })),
      );
      const hash = await hashDeviceSecret(SECRET);
      for (const id of ids) {
        await app.database.db.update(deviceStock).set({ secretHash: hash }).where(eq(deviceStock.deviceId, id));
      }
      await app.services.gateway.directory.load();
      const broker = app.services.gateway.broker;
      if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
      port = broker.port;
    });
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
      await app?.close();
    });

    it('drops thousands of bad messages with counted reasons while a good device is served', async () => {
      const next = rng(42);
      const bad = await Promise.all(['FZ-BAD1', 'FZ-BAD2', 'FZ-BAD3', 'FZ-BAD4'].map(connect));
      const good = await connect('FZ-GOOD');
      let sent = 0;
      const flood = bad.map(async (client, d) => {
        for (let i = 0; i < 450; i++) {
          const { kind, payload } = badMessage(next);
          // QoS 1 half the time: each is answered (acknowledged and dropped), never a lost connection.
          await client.publishAsync(topicOf(`FZ-BAD${d + 1}`, kind as 'event'), payload, { qos: i % 2 ? 1 : 0 });
          sent++;
        }
      });
      // Meanwhile the good device's events are stored as usual.
      const served = (async () => {
        for (let seq = 1; seq <= 20; seq++) {
          await good.publishAsync(topicOf('FZ-GOOD', 'event'), JSON.stringify({ ts: nowS(), seq, event: 'motion' }), {
            qos: 1,
          });
        }
      })();
      await Promise.all([...flood, served]);
      expect(sent).toBe(1_800);
      for (const client of [...bad, good]) expect(client.connected).toBe(true);

      const stored = await app.database.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, 'FZ-GOOD'));
      expect(stored.filter((e) => e.seq !== null)).toHaveLength(20);
      const metric = await app.services.gateway.metrics.registry
        .getSingleMetric('vigil_device_messages_dropped_total')
        ?.get();
      const dropped = (metric?.values ?? []).reduce((sum, v) => sum + v.value, 0);
      expect(dropped).toBeGreaterThan(1_000);
      const ready = await app.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
    });
  });
});
