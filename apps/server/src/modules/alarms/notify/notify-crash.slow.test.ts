import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { topicOf } from '@vigil/contract';
import { connectAsync, type MqttClient } from 'mqtt';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../../db/database.ts';
import { describeOnDb } from '../../../test/db-suites.ts';
import { freePort } from '../../../test/free-port.ts';
import { createTestApp, freshPostgres } from '../../../test/harness.ts';
import { spawnServer, type SpawnedServer } from '../../../test/spawned-server.ts';
import { until } from '../../../test/until.ts';
import { fakeGateway, notifyingHome } from './notify-test-support.ts';

const RADARS = [
  { deviceId: 'CRS-RDR1', secret: 'crash-radar-secret-1', event: 'fall', type: 'FALL', level: 1 },
  { deviceId: 'CRS-RDR2', secret: 'crash-radar-secret-2', event: 'fall_suspected', type: 'FALL_SUSPECTED', level: 2 },
] as const;

interface AlarmRow {
  id: string;
  device_id: string;
  alert_type: string;
  level: number;
}

/**
 * Issue 21, hole 1, with a real crash: the server (npm start's entry, on PostgreSQL) is killed
 * with SIGKILL while a level 1 and a level 2 alarm are on their way and the reading of their
 * notification rows is held up (the test holds an exclusive lock on `alarm_notification`; the
 * alarm's transaction has more to write after that INSERT, so once the lock goes the server's
 * dead connection ends it uncommitted).
 * When the rows were planned after the commit, the alarms were committed and published by then
 * and came back from the restart without any notification; planned in the alarm's own
 * transaction, the crash takes the uncommitted alarm with it, the devices (never acknowledged)
 * send again, and every alarm stored has its rows, and its SMS goes out.
 */
describeOnDb('postgres', 'kill -9 between an alarm and its notifications (%s)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-notify-crash-'));
  let server: SpawnedServer | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const clients: MqttClient[] = [];
  const sessions: pg.Client[] = [];
  const gateways: Awaited<ReturnType<typeof fakeGateway>>[] = [];
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await server?.stop('SIGKILL');
    for (const s of sessions) await s.end().catch(() => undefined);
    for (const g of gateways) await g.close();
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves every committed alarm, level 1 and level 2, with its notification rows', async () => {
    const fresh = await freshPostgres();
    dropDatabase = fresh.drop;
    // The care home, written by an in-process server on the same database.
    const database = await openDatabase({ url: fresh.url });
    await database.migrate();
    const setup = await createTestApp('postgres', { testDb: { database, close: () => database.close() } });
    const home = await notifyingHome(setup, 'Crs', RADARS);
    await setup.close();
    await database.close();

    const [sms, chat] = await Promise.all([fakeGateway(), fakeGateway()]);
    gateways.push(sms, chat);
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    const env = {
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      CONSOLE_DIR: dataDir,
      DATABASE_URL: fresh.url,
      SMS_URL: sms.url,
      SMS_KEY: 'sms-gateway-key-01',
      CHAT_WEBHOOK_URL: chat.url,
      NOTIFY_LANGUAGE: 'en-US',
    };
    server = await spawnServer(env, { readyWithinMs: 180_000 });

    const session = async () => {
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      sessions.push(client);
      return client;
    };
    const look = await session();
    const stored = async () =>
      (
        await look.query<AlarmRow>(
          `select id, device_id, alert_type, level from alarm where device_id = any($1) order by id`,
          [RADARS.map((r) => r.deviceId)],
        )
      ).rows;
    // Planning writes the notification rows: it waits for this lock. (Not the caregivers' table:
    // the device directory reads it too since devices have places, before the alarm is decided.)
    const blocker = await session();
    await blocker.query('begin');
    await blocker.query('lock table alarm_notification in access exclusive mode');

    const connect = (r: (typeof RADARS)[number]) =>
      connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        clientId: r.deviceId,
        username: r.deviceId,
        password: r.secret,
        reconnectPeriod: 0,
      }).then((c) => {
        // A kill resets links with unread bytes (ECONNRESET): expected here, not a test failure.
        c.on('error', () => undefined);
        clients.push(c);
        return c;
      });
    const payloads = new Map<string, string>();
    const acked = new Set<string>();
    for (const r of RADARS) {
      const client = await connect(r);
      const payload = JSON.stringify({ ts: Date.now() / 1000, seq: 1, event: r.event });
      payloads.set(r.deviceId, payload);
      client.publishAsync(topicOf(r.deviceId, 'event'), payload, { qos: 1 }).then(
        () => acked.add(r.deviceId),
        () => undefined,
      );
    }
    // The planning waits for the lock: the moment between the alarm and its notifications.
    await until(
      async () =>
        (
          await look.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'
                and query ilike 'insert into "alarm_notification"%'`,
          )
        ).rows[0]?.n !== '0',
      { what: 'the planning waiting', timeoutMs: 30_000 },
    );
    // Both alarms have got as far as they get while the lock is held.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const beforeCrash = await stored();

    await server.stop('SIGKILL');
    await blocker.query('rollback');
    for (const c of clients.splice(0)) c.end(true);

    server = await spawnServer(env, { readyWithinMs: 180_000 });
    // A device sends again what it holds no PUBACK for, as after any reconnect.
    for (const r of RADARS) {
      if (acked.has(r.deviceId)) continue;
      const client = await connect(r);
      await client.publishAsync(topicOf(r.deviceId, 'event'), payloads.get(r.deviceId) ?? '', { qos: 1 });
      await client.endAsync();
    }
    await until(async () => (await stored()).length === RADARS.length, {
      what: 'both alarms stored',
      timeoutMs: 30_000,
    });
    const alarms = await stored();
    expect(alarms.map((a) => [a.device_id, a.alert_type, a.level])).toEqual(
      RADARS.map((r) => [r.deviceId, r.type, r.level]),
    );
    // What the crash found committed is still the one alarm of each device (no double).
    for (const a of beforeCrash) expect(alarms.map((b) => b.id)).toContain(a.id);

    const rowsOf = async (alarmId: string) =>
      (
        await look.query<{ channel: string; target: string; stage: number }>(
          `select channel, target, stage from alarm_notification where alarm_id = $1 order by channel`,
          [alarmId],
        )
      ).rows;
    for (const a of alarms) {
      await until(async () => (await rowsOf(a.id)).length > 0, {
        what: `the notification rows of ${a.device_id}'s level ${a.level} alarm`,
        timeoutMs: 10_000,
      });
      expect(await rowsOf(a.id)).toEqual([
        { channel: 'chat', target: 'webhook', stage: 1 },
        { channel: 'sms', target: home.receiverPhone, stage: 1 },
      ]);
    }
    // And they go out: one SMS per alarm to the receiver.
    await until(() => sms.received.length >= RADARS.length, { what: 'the SMS sent', timeoutMs: 15_000 });
    expect(sms.received.map((r) => r.body.to)).toEqual(RADARS.map(() => home.receiverPhone));
  }, 600_000);
});
