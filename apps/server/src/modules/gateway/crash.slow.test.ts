import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { PGlite } from '@electric-sql/pglite';
import { topicOf } from '@vigil/contract';
import { freePort } from '../../test/free-port.ts';
import { spawnServer } from '../../test/spawned-server.ts';

const ADMIN_PASSWORD = 'Crash-Test#2026';
const DEVICE = 'CRASH-S1';
const SECRET = 'crash-test-secret-0001';

/**
 * The server killed with SIGKILL in the middle of a stream of QoS 1 events: every event whose
 * PUBACK the device received is stored, and after the device resends what was not
 * acknowledged, every event is stored exactly once. The real server process (npm start's
 * entry), embedded broker and PGlite on disk.
 */
describe('kill -9 in the middle of a stream of events', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-crash-'));
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (httpPort: number, mqttPort: number) =>
    (
      await spawnServer({
        PORT: String(httpPort),
        MQTT_PORT: String(mqttPort),
        DATA_DIR: dataDir,
        VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        CONSOLE_DIR: dataDir,
      })
    ).child;

  const api = async (httpPort: number, url: string, body: unknown, token?: string) => {
    const res = await fetch(`http://127.0.0.1:${httpPort}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { status: number; msg: string; data: { token?: string } };
  };

  it('loses and doubles nothing that was acknowledged', async () => {
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    server = await start(httpPort, mqttPort);
    const login = await api(httpPort, '/admin/login', { userName: 'admin', passWord: ADMIN_PASSWORD });
    expect(login.status, login.msg).toBe(200);
    const imported = await api(
      httpPort,
      '/device/stock/import',
      { rows: [{ deviceId: DEVICE, deviceType: 49, secret: SECRET }] },
      login.data.token,
    );
    expect(imported.status, imported.msg).toBe(200);

    const connect = async () => {
      const client = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        clientId: DEVICE,
        username: DEVICE,
        password: SECRET,
        reconnectPeriod: 0,
      });
      // The kill resets a link with unread bytes (ECONNRESET): the lost link the test expects.
      client.on('error', () => undefined);
      return client;
    };
    let device: MqttClient = await connect();
    const acked = new Set<number>();
    const sent = new Map<number, string>();
    let seq = 0;
    let killed = false;
    const publishing: Promise<void>[] = [];
    // A steady stream, a few in flight at a time, like a device replaying its buffer.
    const stream = (async () => {
      while (!killed && seq < 5_000) {
        const n = ++seq;
        const payload = JSON.stringify({ ts: Date.now() / 1000, seq: n, event: 'motion' });
        sent.set(n, payload);
        publishing.push(
          device.publishAsync(topicOf(DEVICE, 'event'), payload, { qos: 1 }).then(
            () => void acked.add(n),
            () => undefined,
          ),
        );
        // About 40 a second: within a device's rate limit, so every one is taken.
        if (n % 8 === 0) await new Promise((r) => setTimeout(r, 200));
      }
    })();
    await new Promise((r) => setTimeout(r, 3_000));
    server.kill('SIGKILL');
    killed = true;
    await stream;
    await Promise.race([Promise.allSettled(publishing), new Promise((r) => setTimeout(r, 2_000))]);
    device.end(true);
    expect(acked.size).toBeGreaterThan(20);
    const ackedBeforeCrash = new Set(acked);

    server = await start(httpPort, mqttPort);
    device = await connect();
    // The device sends again everything it holds no PUBACK for.
    const missing = [...sent.keys()].filter((n) => !acked.has(n));
    for (const n of missing) {
      await device.publishAsync(topicOf(DEVICE, 'event'), sent.get(n) ?? '', { qos: 1 });
      acked.add(n);
    }
    await device.endAsync();
    const stopped = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await stopped;
    server = undefined;

    const db = new PGlite(path.join(dataDir, 'pglite'));
    const { rows } = await db.query<{ seq: string; n: string }>(
      `select seq::text, count(*)::text as n from device_event where device_id = $1 and seq is not null group by seq`,
      [DEVICE],
    );
    await db.close();
    const stored = new Map(rows.map((r) => [Number(r.seq), Number(r.n)]));
    for (const n of ackedBeforeCrash) expect(stored.get(n), `acknowledged event ${n}`).toBe(1);
    expect(stored.size).toBe(sent.size);
    expect([...stored.values()].every((count) => count === 1)).toBe(true);
  }, 180_000);
});
