import { topicOf, type AlarmType } from '@vigil/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.ts';
import { alarmNotifications, alarms } from '../../../db/schema.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { until } from '../../../test/until.ts';
import { fakeGateway, notifyingHome, type NotifyingHome } from './notify-test-support.ts';

/**
 * Issue 21, hole 1: a committed alarm always has its notification rows. The database refuses the
 * first write of notification rows after the fault is armed (a trigger, counting with a sequence,
 * which a rollback does not take back): where the rows were planned after the commit, the alarm
 * stayed without them and nobody got an SMS; planned in the alarm's own transaction, the refusal
 * fails that transaction, its writer stores it again, and the alarm commits with its rows.
 */
describeEachDb('notification rows of an alarm whose planning meets a database error (%s)', (target) => {
  let app: TestApp;
  let home: NotifyingHome;
  let sms: Awaited<ReturnType<typeof fakeGateway>>;
  let chat: Awaited<ReturnType<typeof fakeGateway>>;
  const clock = new ManualClock(new Date());
  let seq = 1;
  const send = (deviceId: string, kind: 'event' | 'status', body: Record<string, unknown>) =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, kind),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, ...body })),
    );
  const db = () => app.database.db;

  beforeAll(async () => {
    [sms, chat] = await Promise.all([fakeGateway(), fakeGateway()]);
    app = await createTestApp(target, {
      clock,
      env: { SMS_URL: sms.url, SMS_KEY: 'sms-gateway-key-01', CHAT_WEBHOOK_URL: chat.url, NOTIFY_LANGUAGE: 'en-US' },
    });
    home = await notifyingHome(app, 'Dur', [
      { deviceId: 'DUR-RDR1' },
      { deviceId: 'DUR-RDR2' },
      { deviceId: 'DUR-RDR3' },
    ]);
    // Disarmed, the sequence stands at 1000; armed, its next value is 1 and that write fails.
    await db().execute(sql`create sequence notify_fault minvalue 0 start 1000`);
    await db().execute(sql`
      create function notify_fault() returns trigger language plpgsql as $$
      begin
        if nextval('notify_fault') = 1 then
          raise exception 'injected fault: notification rows not written';
        end if;
        return null;
      end $$`);
    await db().execute(
      sql`create trigger notify_fault before insert on alarm_notification for each statement execute function notify_fault()`,
    );
  });
  afterAll(async () => {
    await app?.close();
    await sms?.close();
    await chat?.close();
  });

  const arm = () => db().execute(sql`select setval('notify_fault', 1, false)`);
  const faultFired = async () => {
    const { rows } = (await db().execute(sql`select last_value, is_called from notify_fault`)) as unknown as {
      rows: { last_value: string; is_called: boolean }[];
    };
    const row = rows[0];
    return !!row && row.is_called && Number(row.last_value) >= 1 && Number(row.last_value) < 1000;
  };
  const openAlarm = async (deviceId: string, type: AlarmType) => {
    const [row] = await db()
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, deviceId), eq(alarms.alertType, type), eq(alarms.releaseKind, 0)));
    return row;
  };
  const rowsOf = (alarmId: number) =>
    db().select().from(alarmNotifications).where(eq(alarmNotifications.alarmId, alarmId));

  /** The alarm is committed; its stage 1 rows must be there (and go out), not only "soon". */
  const expectNotified = async (deviceId: string, type: AlarmType, level: number) => {
    await until(async () => !!(await openAlarm(deviceId, type)), { what: `${type} stored`, timeoutMs: 10_000 });
    const alarm = await openAlarm(deviceId, type);
    expect(alarm?.level).toBe(level);
    // The fault did strike: the planning met the database's refusal.
    await until(faultFired, { what: 'the injected fault' });
    await until(async () => (await rowsOf(alarm?.id ?? 0)).length === 2, {
      what: `the notification rows of ${deviceId}'s ${type}`,
      timeoutMs: 5_000,
    });
    const rows = await rowsOf(alarm?.id ?? 0);
    expect(rows.map((r) => [r.channel, r.target, r.stage]).sort()).toEqual([
      ['chat', 'webhook', 1],
      ['sms', home.receiverPhone, 1],
    ]);
    await until(async () => (await rowsOf(alarm?.id ?? 0)).every((r) => r.state === 'sent'), {
      what: `${deviceId}'s ${type} sent`,
    });
  };

  it('a level 1 alarm stored with its device event (the gateway batch)', async () => {
    await arm();
    await send('DUR-RDR1', 'event', { event: 'fall' });
    await expectNotified('DUR-RDR1', 'FALL', 1);
  });

  it('a level 2 alarm stored with its device event (the gateway batch)', async () => {
    await arm();
    await send('DUR-RDR2', 'event', { event: 'fall_suspected' });
    await expectNotified('DUR-RDR2', 'FALL_SUSPECTED', 2);
  });

  it("a level 2 alarm stored by the alarm engine's own writer (a low battery)", async () => {
    await arm();
    await send('DUR-RDR3', 'status', { online: true, battery: 5 });
    await expectNotified('DUR-RDR3', 'LOW_BATTERY', 2);
    // Everything planned went out: no backlog on /metrics.
    const figures = await app.metrics.registry.metrics();
    expect(figures).toMatch(/^vigil_notifications_pending\{channel="sms"\} 0$/m);
    expect(figures).toMatch(/^vigil_notifications_pending\{channel="chat"\} 0$/m);
  });
});
