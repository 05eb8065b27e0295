import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { topicOf } from '@vigil/contract';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { FaultProxy } from './test/fault-proxy.ts';
import { freePort } from './test/free-port.ts';
import { freshPostgres } from './test/harness.ts';
import { openLiveConsole, setUpCareHome, type LiveConsole } from './test/live-care-home.ts';
import { spawnServer, type SpawnedServer } from './test/spawned-server.ts';
import { until } from './test/until.ts';

const ADMIN_PASSWORD = 'Outage-Test#26';
const missing = !process.env.DATABASE_URL;

/**
 * PostgreSQL goes away for 35 s under a real server process with consoles open and heartbeating
 * (their session checks fall inside the outage) and a device pressing its call button. The
 * server must not exit; the consoles stay connected; the press made during the outage is
 * acknowledged only once stored and reaches the consoles when the database is back.
 */
describe.skipIf(missing)(
  `a 35 s database outage with consoles connected${missing ? ' — skipped: DATABASE_URL is not set' : ''}`,
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-outage-'));
    let server: SpawnedServer | undefined;
    let proxy: FaultProxy | undefined;
    let drop: (() => Promise<void>) | undefined;
    const consoles: LiveConsole[] = [];
    let device: MqttClient | undefined;
    afterAll(async () => {
      for (const c of consoles) c.close();
      device?.end(true);
      await server?.stop('SIGKILL');
      await proxy?.close();
      await drop?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps serving, keeps the consoles, and delivers the alarm pressed meanwhile', async () => {
      const db = await freshPostgres();
      drop = db.drop;
      proxy = await FaultProxy.to(db.url);
      const [httpPort, mqttPort] = [await freePort(), await freePort()];
      server = await spawnServer({
        PORT: String(httpPort),
        MQTT_PORT: String(mqttPort),
        DATA_DIR: dataDir,
        CONSOLE_DIR: dataDir,
        DATABASE_URL: FaultProxy.via(db.url, proxy),
        VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      });
      const base = `http://127.0.0.1:${httpPort}`;
      const deviceId = 'OUTAGE-SOS1';
      const secret = 'outage-secret-00001';
      const home = await setUpCareHome(base, {
        adminPassword: ADMIN_PASSWORD,
        name: 'Outage Home',
        devices: [{ deviceId, deviceType: 20993, secret }],
      });
      for (let i = 0; i < 2; i++)
        consoles.push(await openLiveConsole(`ws://127.0.0.1:${httpPort}/websocket`, home.key, 1_000));
      device = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        clientId: deviceId,
        username: deviceId,
        password: secret,
        reconnectPeriod: 1_000,
      });

      let seq = 0;
      const send = (event: string) =>
        device?.publishAsync(topicOf(deviceId, 'event'), JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event }), {
          qos: 1,
        });
      const alarms = (c: LiveConsole) => c.frames.filter((f) => f.path === '/alertNotify').length;
      // The gateway knows the device once its directory reloaded: pressed until both consoles hear it, then released.
      await until(
        async () => {
          await send('sos');
          await new Promise((resolve) => setTimeout(resolve, 500));
          return consoles.every((c) => alarms(c) > 0);
        },
        { timeoutMs: 60_000, intervalMs: 10, what: 'a first alarm on both consoles' },
      );
      await send('device_release');
      await until(() => consoles.every((c) => c.frames.some((f) => f.path === '/userStatusNotify')), {
        what: 'the release on both consoles',
      });

      await proxy.down();
      const press = send('sos');
      let acknowledged = false;
      void press?.then(() => (acknowledged = true));
      // 35 s: past the consoles' 30 s session check, which used to end the process.
      await new Promise((resolve) => setTimeout(resolve, 35_000));
      expect(server.child.exitCode, server.output()).toBeNull();
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
      expect(acknowledged, 'an event is acknowledged only once stored').toBe(false);
      expect(consoles.flatMap((c) => c.closes)).toEqual([]);

      await proxy.up();
      await until(() => consoles.every((c) => alarms(c) === 2), {
        timeoutMs: 60_000,
        what: `the alarm pressed during the outage on both consoles (server said: ${server.output().slice(-2000)})`,
      });
      await until(() => acknowledged, { timeoutMs: 10_000, what: 'the press acknowledged' });
      await until(async () => (await fetch(`${base}/readyz`)).status === 200, {
        timeoutMs: 30_000,
        what: 'ready again',
      });
      expect(consoles.flatMap((c) => c.closes)).toEqual([]);
      expect(server.child.exitCode).toBeNull();
    }, 150_000);
  },
);
