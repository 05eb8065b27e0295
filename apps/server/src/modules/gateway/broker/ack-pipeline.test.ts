import { randomBytes } from 'node:crypto';
import { connect, connectAsync, type IClientOptions, type MqttClient, type Packet } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasMosquitto, PrivateMosquitto } from '../../../test/private-mosquitto.ts';
import { until } from '../../../test/until.ts';
import { AckPipeline } from './ack-pipeline.ts';

// A broker of the kind the pipeline serves (MQTT 5; the embedded aedes speaks 3.1.1 only).
let broker: PrivateMosquitto | undefined;
let url = '';
let run = '';
const clients: MqttClient[] = [];

beforeAll(async () => {
  if (!hasMosquitto()) return;
  broker = await PrivateMosquitto.start();
  url = broker.url;
});
afterAll(async () => {
  await broker?.close();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.endAsync(true).catch(() => undefined);
  run = randomBytes(3).toString('hex');
});
run = randomBytes(3).toString('hex');

interface Held {
  n: number;
  messageId: number;
  settle: (ok: boolean) => void;
}

/**
 * A consumer whose stores wait until the test settles them, and the PUBACKs that reached the
 * wire (recorded below the pipeline), in order.
 */
const consumer = async (window: number, options: Partial<IClientOptions> = {}) => {
  const held: Held[] = [];
  const stored: number[] = [];
  const acked: number[] = [];
  const failures: unknown[] = [];
  const client = connect(url, {
    clientId: `consumer-${run}`,
    clean: false,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: 60 },
    reconnectPeriod: 100,
    customHandleAcks: (_topic, message, packet, done) => {
      const n = Number(message.toString());
      pipeline.take(
        packet,
        () =>
          new Promise<void>((resolve, reject) =>
            held.push({
              n,
              messageId: packet.messageId ?? -1,
              settle: (ok) => (ok ? (stored.push(n), resolve()) : reject(new Error(`store ${n} failed`))),
            }),
          ),
        done,
      );
    },
    ...options,
  });
  clients.push(client);
  const writer = client as unknown as { _sendPacket: (p: Packet, cb?: () => void, ...rest: unknown[]) => void };
  const original = writer._sendPacket.bind(client);
  writer._sendPacket = (packet, cb, ...rest) => {
    if (packet.cmd === 'puback') acked.push(packet.messageId ?? -1);
    original(packet, cb, ...rest);
  };
  const pipeline = new AckPipeline(client, window, (error) => failures.push(error));
  await new Promise((resolve) => client.once('connect', resolve));
  await client.subscribeAsync(`${run}/#`, { qos: 1 });
  return { client, held, stored, acked, failures, pipeline };
};

const publish = async (from: number, count: number) => {
  const publisher = await connectAsync(url, { clientId: `publisher-${run}-${from}` });
  clients.push(publisher);
  await Promise.all(
    Array.from({ length: count }, (_, i) => publisher.publishAsync(`${run}/${i % 3}`, String(from + i), { qos: 1 })),
  );
};

describe.skipIf(!hasMosquitto())(
  'the acknowledgement pipeline of an event connection (Mosquitto; skipped without it)',
  () => {
    it('takes a burst at once, and acknowledges each only after it is stored, in the order they came', async () => {
      // Twenty: within the broker's limit of messages in flight to one client (max_inflight_messages).
      const c = await consumer(100);
      await publish(0, 20);
      await until(async () => c.held.length === 20);
      // All twenty were being stored at the same time; none was acknowledged.
      expect(c.acked).toEqual([]);
      const order = c.held.map((h) => h.messageId);
      // Stored last-first: nothing goes out until the first is stored, then all of them, in order.
      for (const h of [...c.held].reverse().slice(0, 19)) h.settle(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(c.acked).toEqual([]);
      c.held[0]?.settle(true);
      await until(async () => c.acked.length === 20);
      expect(c.acked).toEqual(order);
      expect(c.pipeline.waiting).toBe(0);
    });

    it('takes at most its window, and reads on as the oldest are acknowledged', async () => {
      const c = await consumer(5);
      await publish(0, 20);
      await until(async () => c.held.length === 5);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(c.held).toHaveLength(5);
      c.held[0]?.settle(true);
      await until(async () => c.held.length === 6);
      for (let i = 1; i < 20; i++) {
        await until(async () => c.held.length > i);
        c.held[i]?.settle(true);
      }
      await until(async () => c.acked.length === 20);
      expect(c.stored).toHaveLength(20);
    });

    it('a message that could not be stored is not acknowledged, nor any after it: the broker sends them again', async () => {
      const c = await consumer(100);
      await publish(0, 10);
      await until(async () => c.held.length === 10);
      c.held[0]?.settle(true);
      await until(async () => c.acked.length === 1);
      c.held[3]?.settle(false);
      for (const i of [1, 2, 4, 5, 6, 7, 8, 9]) c.held[i]?.settle(true);
      await until(async () => c.failures.length === 1);
      const ackedBefore = c.acked.length;
      // Redelivered on the new connection (the session is kept): stored now, acknowledged then.
      await until(async () => c.held.length === 19);
      // 1…9 again (a store of one already stored answers at once, as ingest's duplicates do).
      expect(c.held.slice(10).map((h) => h.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const h of c.held.slice(10)) h.settle(true);
      await until(async () => c.pipeline.waiting === 0 && c.acked.length === ackedBefore + 9);
      expect(new Set(c.stored)).toEqual(new Set(Array.from({ length: 10 }, (_, i) => i)));
      // Messages 1 and 2 (before the failed one) may have been acknowledged; none from 3 on on the old connection.
      expect(ackedBefore).toBeLessThanOrEqual(3);
      expect(c.acked.length).toBeGreaterThanOrEqual(10);
    });
  },
);
