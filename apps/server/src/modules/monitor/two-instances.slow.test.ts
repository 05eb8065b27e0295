import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  adminLogin,
  alarmCalls,
  createClient,
  deviceCalls,
  insertProvider,
  monitorCalls,
  topicOf,
  type ApiClient,
} from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { connectAsync } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { openDatabase } from '../../db/database.ts';
import { areas, beds, devices, residents, rooms } from '../../db/schema.ts';
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
 * the Redis relay — and exactly one alarm is stored. A third instance that takes no device
 * messages (its own embedded broker) still streams a sleep monitor's vitals to its console, which
 * can only have come over the Redis vitals channel, once the console's session followed the
 * resident through another instance's API.
 */
describe.skipIf(missing.length > 0)(
  `two instances behind one broker${missing.length ? ` — skipped: ${missing.join(', ')} not set` : ''}`,
  () => {
    const servers: SpawnedServer[] = [];
    const sockets: WebSocket[] = [];
    let dropDatabase: (() => Promise<void>) | undefined;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-two-'));
    /** What the first test set up, for the second. */
    const shared: { dbUrl: string; tag: string; key: string; token: string; portA: number } = {
      dbUrl: '',
      tag: '',
      key: '',
      token: '',
      portA: 0,
    };
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
      shared.dbUrl = db.url;
      shared.tag = tag;
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
      Object.assign(shared, { key: login.key, token: login.token, portA });
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

    it('a console on an instance that takes no device messages gets the vitals another instance received', async () => {
      const { dbUrl, tag, key, token, portA } = shared;
      if (!dbUrl) throw new Error('the first test did not set up the instances');
      const home = createClient({
        baseUrl: `http://127.0.0.1:${portA}`,
        getToken: () => token,
        getLanguage: () => 'en-US',
      });
      // A sleep monitor in a resident's bed, the bed written straight to the database.
      const monitorId = `TWO-${tag}-S`;
      let adminToken: string | null = null;
      const platform = createClient({
        baseUrl: `http://127.0.0.1:${portA}`,
        getToken: () => adminToken,
        getLanguage: () => 'en-US',
      });
      adminToken = (
        await platform.call(adminLogin, { userName: 'admin', passWord: ADMIN_PASSWORD, from: 'PC', rsa: false })
      ).token;
      await platform.call(deviceCalls.deviceStockImport, { rows: [{ deviceId: monitorId, deviceType: 49 }] });
      await home.call(deviceCalls.insertDevice, { deviceId: monitorId, deviceType: 49 });
      const database = await openDatabase({ url: dbUrl });
      let residentId = 0;
      try {
        const { db } = database;
        const [device] = await db.select().from(devices).where(eq(devices.deviceId, monitorId));
        if (!device) throw new Error('sleep monitor not added');
        const providerId = device.providerId;
        const [area] = await db
          .insert(areas)
          .values({ providerId, name: `Two ${tag}` })
          .returning();
        const [floor] = await db.insert(areas).values({ providerId, parentId: area?.id, name: 'F1' }).returning();
        const [room] = await db
          .insert(rooms)
          .values({ providerId, floorId: floor?.id ?? 0, name: '101' })
          .returning();
        const [resident] = await db
          .insert(residents)
          .values({ providerId, name: 'Vita', gender: 1, state: 'checkedIn', roomId: room?.id })
          .returning();
        residentId = resident?.id ?? 0;
        await db
          .insert(beds)
          .values({ providerId, roomId: room?.id ?? 0, name: '101-1', residentId, deviceId: device.id });
      } finally {
        await database.close();
      }

      // The third instance: the same database and Redis, its own embedded broker (no device speaks to it).
      const portC = await freePort();
      servers.push(
        await spawnServer({
          PORT: String(portC),
          MQTT_PORT: String(await freePort()),
          DATA_DIR: path.join(dataDir, 'c'),
          CONSOLE_DIR: dataDir,
          DATABASE_URL: dbUrl,
          REDIS_URL: REDIS_URL ?? '',
          VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        }),
      );
      const frames: string[] = [];
      const ws = new WebSocket(`ws://127.0.0.1:${portC}/websocket?lang=en-US`);
      sockets.push(ws);
      ws.on('message', (d) => frames.push(String(d)));
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ path: '/login', data: { key } }));
      await until(() => frames.some((f) => f.includes('"code":200')), { what: 'console C logged in' });
      // Followed through instance A's API: the session's sockets on every instance follow the resident.
      const followed = await home.call(monitorCalls.subscribeVitals, { userIds: [residentId] });
      expect(followed).toEqual({ subscribed: 1 });

      // The monitor streams to the shared broker (instances A and B); C learns the bed at its directory's reload.
      const device = await connectAsync(MQTT_URL ?? '', { clientId: monitorId });
      const heartRate = (f: string) =>
        f.includes('"/vitalsNotify"') && f.includes(monitorId) && f.includes('"heartRate":77');
      let seq = 0;
      try {
        await until(
          async () => {
            await device.publishAsync(
              topicOf(monitorId, 'telemetry'),
              JSON.stringify({
                ts: Date.now() / 1000,
                seq: ++seq,
                hr: 77,
                rr: 15,
                inBed: true,
                asleep: false,
                move: 1,
              }),
              { qos: 0 },
            );
            await new Promise((resolve) => setTimeout(resolve, 500));
            return frames.some(heartRate);
          },
          { timeoutMs: 75_000, intervalMs: 10, what: "the monitor's heart rate on console C" },
        );
      } finally {
        await device.endAsync();
      }
      const frame = JSON.parse(frames.find(heartRate) ?? '{}') as { data?: { rows?: { userId: number }[] } };
      expect(frame.data?.rows?.map((r) => r.userId)).toEqual([residentId]);
    }, 180_000);
  },
);
