import { createConnection, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { eq } from 'drizzle-orm';
import { MAX_PAYLOAD_BYTES, topicOf } from '@vigil/contract';
import { ManualClock } from '../../clock.ts';
import { deviceEvents, deviceStock } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import { EmbeddedBroker } from './broker/embedded-broker.ts';
import { connectFrom, connectPacket, fixedHeader } from './broker/mqtt-test-support.ts';
import { PENDING_LIMITS } from './broker/pending-connections.ts';
import { hashDeviceSecret } from './credentials/secret.ts';
import { addDevice, deviceWorld, loadStock, T } from '../devices/device-test-support.ts';

const SECRET = 'limits-device-secret-01';
const MB = 1024 * 1024;

describe('the embedded broker against a hostile client (issue 28, defect 5)', () => {
  let app: TestApp;
  let port: number;
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];

  const counter = async (name: string, reason: string) => {
    const metric = await app.services.gateway.metrics.registry.getSingleMetric(name)?.get();
    return (metric?.values ?? []).filter((v) => v.labels.reason === reason).reduce((sum, v) => sum + v.value, 0);
  };
  /** A raw TCP connection from a loopback address, and whether the server has closed it. */
  const open = (localAddress = '127.0.0.1') =>
    new Promise<{ socket: Socket; closed: () => boolean }>((resolve, reject) => {
      let closed = false;
      const socket = createConnection({ host: '127.0.0.1', port, localAddress }, () =>
        resolve({ socket, closed: () => closed }),
      );
      sockets.push(socket);
      socket.on('close', () => (closed = true));
      socket.once('error', reject);
    });
  /**
   * Writes `head`, then up to `total` bytes in 1 MB chunks as fast as the socket takes them,
   * until the server closes the connection. Answers the bytes the server let in meanwhile.
   */
  const flood = async (socket: Socket, head: Buffer, total: number): Promise<number> => {
    socket.removeAllListeners('error');
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', resolve)));
    const write = (bytes: Buffer) =>
      new Promise<void>((resolve) => {
        if (socket.destroyed || socket.write(bytes)) return resolve();
        socket.once('drain', resolve);
        void closed.then(resolve);
      });
    const chunk = Buffer.alloc(MB, 0x61);
    await write(head);
    let written = 0;
    while (!socket.destroyed && written < total) {
      await write(chunk);
      written += chunk.length;
    }
    await closed;
    return written;
  };
  /** A device's MQTT connection in raw bytes, up to its CONNACK. */
  const rawDevice = async (deviceId: string) => {
    const { socket } = await open();
    const connack = new Promise<Buffer>((resolve) => socket.once('data', resolve));
    socket.write(connectPacket({ clientId: deviceId, username: deviceId, password: SECRET }));
    expect([...(await connack)]).toEqual([0x20, 2, 0, 0]);
    return socket;
  };
  /** The broker still serves a real device: an event is stored before its PUBACK. */
  const deviceStillServed = async (seq: number) => {
    const device = await connectFrom(port, '127.0.0.1', 'BL-S1', SECRET, clients);
    await device.publishAsync(topicOf('BL-S1', 'event'), JSON.stringify({ ts: Date.now() / 1000, seq, event: 'sos' }), {
      qos: 1,
    });
    const rows = await app.database.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, 'BL-S1'));
    expect(rows.filter((r) => r.seq === seq)).toHaveLength(1);
    await device.endAsync();
  };

  beforeAll(async () => {
    app = await createTestApp('pglite', { clock: new ManualClock(new Date()) });
    const w = await deviceWorld(app, 'Bl');
    await loadStock(app, w.admin, [
      { deviceId: 'BL-S1', deviceType: T.sleep },
      { deviceId: 'BL-S2', deviceType: T.sleep },
    ]);
    const hash = await hashDeviceSecret(SECRET);
    for (const id of ['BL-S1', 'BL-S2']) {
      await app.database.db.update(deviceStock).set({ secretHash: hash }).where(eq(deviceStock.deviceId, id));
      await addDevice(app, w.aHome.token, id, T.sleep);
    }
    await app.services.gateway.directory.load();
    const broker = app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    port = broker.port;
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await app?.close();
  });

  it('closes a connection whose CONNECT announces 200 MB as soon as the header is read, and counts it', async () => {
    const before = await counter('vigil_device_connects_refused_total', 'packet_too_large');
    const { socket } = await open();
    // Before issue 28 the broker took all 200 MB and held them until the connect timeout.
    const taken = await flood(socket, fixedHeader(0x10, 200 * MB), 200 * MB);
    expect(taken).toBeLessThan(16 * MB);
    expect(await counter('vigil_device_connects_refused_total', 'packet_too_large')).toBe(before + 1);
    await deviceStillServed(1);
  });

  it('closes a device’s connection when a PUBLISH announces more than a 64 KB message, before buffering it', async () => {
    const before = await counter('vigil_device_publishes_refused_total', 'packet_too_large');
    const socket = await rawDevice('BL-S2');
    const taken = await flood(socket, fixedHeader(0x32, 100 * MB), 100 * MB);
    expect(taken).toBeLessThan(16 * MB);
    expect(await counter('vigil_device_publishes_refused_total', 'packet_too_large')).toBe(before + 1);
    await deviceStillServed(2);
  });

  it('still takes a message of exactly 64 KB and drops one just over it as oversize, connected', async () => {
    const device = await connectFrom(port, '127.0.0.1', 'BL-S2', SECRET, clients);
    const before = await counter('vigil_device_messages_dropped_total', 'oversize');
    await device.publishAsync(topicOf('BL-S2', 'event'), Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 0x20), { qos: 1 });
    expect(await counter('vigil_device_messages_dropped_total', 'oversize')).toBe(before + 1);
    const padded = JSON.stringify({ ts: Date.now() / 1000, seq: 3, event: 'sos' }).padEnd(MAX_PAYLOAD_BYTES, ' ');
    await device.publishAsync(topicOf('BL-S2', 'event'), padded, { qos: 1 });
    const rows = await app.database.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, 'BL-S2'));
    expect(rows.filter((r) => r.seq === 3)).toHaveLength(1);
    expect(device.connected).toBe(true);
    await device.endAsync();
  });

  it('closes connections over the cap of those not yet authenticated from one address, and counts them', async () => {
    const before = await counter('vigil_device_connects_refused_total', 'too_many_pending');
    const extra = 5;
    const idle = await Promise.all(
      Array.from({ length: PENDING_LIMITS.perAddress + extra }, () =>
        open('127.0.0.5').catch(() => ({ socket: undefined, closed: () => true })),
      ),
    );
    await until(() => idle.filter((c) => c.closed()).length === extra, { what: 'the excess closed' });
    expect(await counter('vigil_device_connects_refused_total', 'too_many_pending')).toBe(before + extra);
    // Another address is not affected; a device from the crowded one is turned away…
    const elsewhere = await connectFrom(port, '127.0.0.6', 'BL-S2', SECRET, clients);
    await elsewhere.endAsync();
    await expect(connectFrom(port, '127.0.0.5', 'BL-S2', SECRET, clients)).rejects.toThrow();
    // …until the idle ones are gone.
    for (const c of idle) c.socket?.destroy();
    await until(async () => {
      try {
        await (await connectFrom(port, '127.0.0.5', 'BL-S2', SECRET, clients)).endAsync();
        return true;
      } catch {
        return false;
      }
    });
  });
});

describe('the embedded broker behind a trusted TCP proxy (MQTT_TRUSTED_PROXIES)', () => {
  let app: TestApp;
  let port: number;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    // 127.0.0.7 plays the TLS proxy every device connects through.
    app = await createTestApp('pglite', {
      clock: new ManualClock(new Date()),
      env: { MQTT_TRUSTED_PROXIES: '127.0.0.7' },
    });
    const w = await deviceWorld(app, 'Px');
    await loadStock(app, w.admin, [{ deviceId: 'PX-S1', deviceType: T.sleep }]);
    await app.database.db
      .update(deviceStock)
      .set({ secretHash: await hashDeviceSecret(SECRET) })
      .where(eq(deviceStock.deviceId, 'PX-S1'));
    await addDevice(app, w.aHome.token, 'PX-S1', T.sleep);
    await app.services.gateway.directory.load();
    const broker = app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    port = broker.port;
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await app?.close();
  });

  it('never locks out the proxy’s address, which stands for every device behind it', async () => {
    for (let i = 0; i < 60; i++) {
      await expect(connectFrom(port, '127.0.0.7', `PX-GUESS-${i}`, 'wrong-secret-000000', clients)).rejects.toThrow(
        /Not authorized/i,
      );
    }
    const device = await connectFrom(port, '127.0.0.7', 'PX-S1', SECRET, clients);
    expect(device.connected).toBe(true);
    await device.endAsync();
  });

  it('counts the proxy’s connections not yet authenticated only against the overall cap', async () => {
    const idle: Socket[] = [];
    for (let i = 0; i < PENDING_LIMITS.perAddress + 5; i++) {
      idle.push(
        await new Promise<Socket>((resolve, reject) => {
          const socket = createConnection({ host: '127.0.0.1', port, localAddress: '127.0.0.7' }, () =>
            resolve(socket),
          );
          socket.once('error', reject);
        }),
      );
    }
    const device = await connectFrom(port, '127.0.0.7', 'PX-S1', SECRET, clients);
    await device.endAsync();
    expect(idle.every((s) => !s.destroyed)).toBe(true);
    for (const s of idle) s.destroy();
  });
});
