import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  adminLogin,
  alarmCalls,
  createClient,
  deviceCalls,
  insertProvider,
  topicOf,
  type ApiClient,
} from '@vigil/contract';
import { connectAsync } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { freePort } from '../../test/free-port.ts';
import { freshPostgres } from '../../test/harness.ts';
import { spawnServer, type SpawnedServer } from '../../test/spawned-server.ts';
import { until } from '../../test/until.ts';

const { MQTT_URL, REDIS_URL } = process.env;
const missing = ['DATABASE_URL', 'MQTT_URL', 'REDIS_URL'].filter((name) => !process.env[name]);
const ADMIN_PASSWORD = 'Two#Instances26';
const HOME_PASSWORD = 'Care#Home2026';

/**
 * Two server instances on one PostgreSQL, one external MQTT broker (shared subscription: each
 * device message reaches one instance) and Redis: a console on each instance. Whichever instance
 * takes the device's SOS, both consoles get the alarm and its release — at least one of them over
 * the Redis relay — and exactly one alarm is stored.
 */
describe.skipIf(missing.length > 0)(
  `two instances behind one broker${missing.length ? ` — skipped: ${missing.join(', ')} not set` : ''}`,
  () => {
    const servers: SpawnedServer[] = [];
    const sockets: WebSocket[] = [];
    let dropDatabase: (() => Promise<void>) | undefined;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-two-'));
    afterAll(async () => {
      for (const s of sockets) s.terminate();
      for (const s of servers) await s.stop('SIGTERM');
      await dropDatabase?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('a console on either instance hears of an alarm taken by the other', async () => {
      const db = await freshPostgres();
      dropDatabase = db.drop;
      const tag = Date.now().toString(36).toUpperCase();
      const ports = [await freePort(), await freePort()];
      for (const [i, port] of ports.entries())
        servers.push(
          await spawnServer({
            PORT: String(port),
            DATA_DIR: path.join(dataDir, String(i)),
            CONSOLE_DIR: dataDir,
            DATABASE_URL: db.url,
            MQTT_URL: MQTT_URL ?? '',
            MQTT_CLIENT_ID: `vigil-two-${tag}-${i}`,
            MQTT_SHARE_GROUP: `vigil-two-${tag}`,
            REDIS_URL: REDIS_URL ?? '',
            VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
          }),
        );
      const client = (port: number, token: () => string | null): ApiClient =>
        createClient({ baseUrl: `http://127.0.0.1:${port}`, getToken: token, getLanguage: () => 'en-US' });
      const [portA = 0, portB = 0] = ports;
      let adminToken: string | null = null;
      const admin = client(portA, () => adminToken);
      adminToken = (
        await admin.call(adminLogin, { userName: 'admin', passWord: ADMIN_PASSWORD, from: 'PC', rsa: false })
      ).token;
      await admin.call(insertProvider, {
        name: `Two ${tag}`,
        userName: `two${tag.toLowerCase()}`,
        passWord: HOME_PASSWORD,
      });
      const deviceId = `TWO-${tag}`;
      await admin.call(deviceCalls.deviceStockImport, { rows: [{ deviceId, deviceType: 20993 }] });
      const login = await client(portB, () => null).call(adminLogin, {
        userName: `two${tag.toLowerCase()}`,
        passWord: HOME_PASSWORD,
        from: 'PC',
        rsa: false,
      });
      await client(portB, () => login.token).call(deviceCalls.insertDevice, { deviceId, deviceType: 20993 });

      // A console on each instance, logged in with the same session's key.
      const frames: string[][] = [[], []];
      for (const [i, port] of ports.entries()) {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/websocket?lang=en-US`);
        sockets.push(ws);
        ws.on('message', (d) => frames[i]?.push(String(d)));
        await new Promise((resolve) => ws.once('open', resolve));
        ws.send(JSON.stringify({ path: '/login', data: { key: login.key } }));
        await until(() => frames[i]?.some((f) => f.includes('"code":200')) ?? false, {
          what: `console ${i} logged in`,
        });
      }

      // The device speaks to the broker; one of the instances takes the event. The directories
      // reload every 30 s: the SOS is sent again (a new seq) until some instance knows the device.
      const device = await connectAsync(MQTT_URL ?? '', { clientId: deviceId });
      const heard = (i: number, path: string) =>
        frames[i]?.some((f) => f.includes(`"${path}"`) && f.includes(deviceId)) ?? false;
      let seq = 0;
      await until(
        async () => {
          await device.publishAsync(
            topicOf(deviceId, 'event'),
            JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event: 'sos' }),
            {
              qos: 1,
            },
          );
          await new Promise((resolve) => setTimeout(resolve, 500));
          return heard(0, '/alertNotify') && heard(1, '/alertNotify');
        },
        { timeoutMs: 60_000, intervalMs: 10, what: 'the alarm on both consoles' },
      );
      await device.publishAsync(
        topicOf(deviceId, 'event'),
        JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event: 'device_release' }),
        { qos: 1 },
      );
      await until(() => heard(0, '/userStatusNotify') && heard(1, '/userStatusNotify'), {
        timeoutMs: 15_000,
        what: 'the release on both consoles',
      });
      await device.endAsync();
      // One alarm, however many presses and instances.
      const pending = await client(portA, () => login.token).call(alarmCalls.alarmLog, {
        keyWord: deviceId,
        pageNum: 1,
        pageSize: 10,
      });
      expect(pending.rows.filter((r) => r.alertType === 'SOS')).toHaveLength(1);
    }, 180_000);
  },
);
