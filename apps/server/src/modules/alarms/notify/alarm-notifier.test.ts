import { alarmCalls, caregiverCalls, topicOf } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.ts';
import { alarmNotifications, residents } from '../../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { until } from '../../../test/until.ts';
import { makeCaregiver } from '../../caregivers/care-fixtures.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../../devices/device-test-support.ts';
import type { AlarmPayload } from '../../../core/event-catalogue.ts';
import { MAX_ATTEMPTS } from './alarm-notifier.ts';
import { fakeGateway } from './notify-test-support.ts';

describe('alarm notifications by SMS and chat webhook', () => {
  let app: TestApp;
  let w: DeviceWorld;
  let sms: Awaited<ReturnType<typeof fakeGateway>>;
  let chat: Awaited<ReturnType<typeof fakeGateway>>;
  const clock = new ManualClock(new Date());
  let seq = 1;
  let receiverPhone = '';
  let leadPhone = '';
  let residentId = 0;

  const press = (deviceId: string, event = 'sos') =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, 'event'),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, event })),
    );
  const notifier = () => app.services.alarms.notifier;
  const rowsOf = async (alarmId: number) =>
    app.database.db.select().from(alarmNotifications).where(eq(alarmNotifications.alarmId, alarmId));
  const openAlarm = async (deviceId: string) => {
    const res = await app.call(alarmCalls.alarmLogUnDeal, { keyWord: deviceId }, { token: w.aHome.token });
    return res.data?.rows[0];
  };

  beforeAll(async () => {
    [sms, chat] = await Promise.all([fakeGateway(), fakeGateway()]);
    app = await createTestApp('pglite', {
      clock,
      env: {
        SMS_URL: sms.url,
        SMS_KEY: 'sms-gateway-key-01',
        CHAT_WEBHOOK_URL: chat.url,
        NOTIFY_LANGUAGE: 'en-US',
        ALARM_ESCALATE_MINUTES: '5',
      },
    });
    w = await deviceWorld(app, 'Ntf');
    await loadStock(app, w.admin, [
      { deviceId: 'NTF-SOS1', deviceType: T.sos },
      { deviceId: 'NTF-RDR1', deviceType: T.fallDomestic },
    ]);
    await addDevice(app, w.aHome.token, 'NTF-SOS1', T.sos);
    await addDevice(app, w.aHome.token, 'NTF-RDR1', T.fallDomestic);
    const bed = await placeBed(app, w.aHome.id, {
      area: 'Ntf Area',
      room: 'Ntf 101',
      bed: 'Ntf 101-1',
      resident: 'Ada',
    });
    await linkBed(app, bed.bedId, 'NTF-RDR1');
    residentId = bed.residentId ?? 0;
    const receiver = await makeCaregiver(app, w.aHome.token, 'Receiver');
    const lead = await makeCaregiver(app, w.aHome.token, 'Lead', { level: 'lead' });
    receiverPhone = receiver.phone;
    leadPhone = lead.phone;
    const community = await app.call(
      caregiverCalls.insertCommunity,
      { name: 'Ntf Community', providerId: w.aHome.id },
      { token: w.aHome.token },
    );
    await app.database.db
      .update(residents)
      .set({ communityId: community.data?.id ?? 0 })
      .where(eq(residents.id, bed.residentId ?? 0));
    const saved = await app.call(
      caregiverCalls.saveAlarmConfig,
      { communityId: community.data?.id ?? 0, receiverIds: [receiver.id], notify: ['sms', 'chat', 'page'] },
      { token: w.aHome.token },
    );
    expect(saved.status, saved.msg).toBe(200);
    await app.services.gateway.directory.load();
    await app.services.alarms.watch.load();
  });
  afterAll(async () => {
    await app?.close();
    await sms?.close();
    await chat?.close();
  });

  it('a new alarm of a community resident goes by SMS to its receivers and to the chat group, once', async () => {
    await press('NTF-RDR1', 'fall');
    const alarm = await openAlarm('NTF-RDR1');
    await until(() => sms.received.length === 1 && chat.received.length === 1, { what: 'both gateways' });
    expect(sms.received[0]).toEqual({
      body: { to: receiverPhone, text: 'Ntf 101 Ntf 101-1: Ada has fallen' },
      auth: 'Bearer sms-gateway-key-01',
    });
    expect(chat.received[0]?.body).toEqual({ msgtype: 'text', text: { content: 'Ntf 101 Ntf 101-1: Ada has fallen' } });
    // A repeat of the fall, the raise event published again (an outbox relay) and the alarm
    // planned again add nothing.
    await press('NTF-RDR1', 'fall');
    // Only what the notifier reads of an alarm.
    const again = { id: alarm?.id ?? 0, providerId: w.aHome.id, residentId, releaseKind: 0 } as AlarmPayload;
    app.services.events.publish([
      { id: 0, at: clock.now(), type: 'alarm.raised', providerId: w.aHome.id, payload: { alarm: again } },
    ]);
    expect(await app.services.transactions.run((tx) => notifier().plan(tx, [again]))).toBe(0);
    await notifier().kick();
    expect(sms.received).toHaveLength(1);
    const steps = await app.services.alarms.repo.timeline(app.database.db, alarm?.id ?? 0);
    expect(
      steps
        .filter((s) => s.step === 'notified')
        .map((s) => s.detail.channel)
        .sort(),
    ).toEqual(['chat', 'sms']);
    expect(JSON.stringify(steps)).not.toContain(receiverPhone);
  });

  it('retries a refused send with backoff and records the failure after the last attempt', async () => {
    sms.answerWith(() => ({ status: 503, body: { error: 'busy' } }));
    chat.answerWith(() => ({ status: 200, body: { errcode: 310000, errmsg: 'keywords not in content' } }));
    await press('NTF-RDR1', 'fall_suspected');
    const suspected = (
      await app.call(alarmCalls.alarmLogUnDeal, { alertType: 'FALL_SUSPECTED' }, { token: w.aHome.token })
    ).data?.rows[0];
    const alarmId = suspected?.id ?? 0;
    await until(async () => (await rowsOf(alarmId)).every((r) => r.attempts >= 1), { what: 'first tries' });
    // The backlog on /metrics (the dashboard's notification panel) counts them while they wait.
    const figures = await app.metrics.registry.metrics();
    for (const channel of ['sms', 'chat'])
      expect(
        Number(new RegExp(`^vigil_notifications_pending\\{channel="${channel}"\\} (\\d+)$`, 'm').exec(figures)?.[1]),
      ).toBeGreaterThan(0);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      clock.advance(400_000);
      await notifier().kick();
    }
    const rows = await rowsOf(alarmId);
    expect(rows.map((r) => [r.channel, r.state, r.attempts])).toEqual(
      expect.arrayContaining([
        ['sms', 'failed', MAX_ATTEMPTS],
        ['chat', 'failed', MAX_ATTEMPTS],
      ]),
    );
    expect(rows.find((r) => r.channel === 'chat')?.lastError).toContain('310000');
    const steps = await app.services.alarms.repo.timeline(app.database.db, alarmId);
    expect(steps.filter((s) => s.step === 'notify_failed')).toHaveLength(2);
    sms.answerWith(() => ({ status: 200, body: {} }));
    chat.answerWith(() => ({ status: 200, body: { errcode: 0 } }));
  });

  it('an unhandled level 1 alarm is sent again to the lead caregivers after the escalation time', async () => {
    // The earlier tests' alarms are still open and long due: escalate those first.
    await notifier().escalate();
    await notifier().kick();
    await press('NTF-SOS1');
    const alarm = await openAlarm('NTF-SOS1');
    const before = sms.received.length;
    expect(await notifier().escalate()).toBe(0);
    clock.advance(5 * 60_000 + 1_000);
    // Handled alarms are not escalated; this one is still open.
    expect(await notifier().escalate()).toBeGreaterThan(0);
    await notifier().kick();
    const sent = sms.received.slice(before).map((r) => r.body.to);
    expect(sent).toContain(leadPhone);
    expect((await rowsOf(alarm?.id ?? 0)).filter((r) => r.stage === 2).length).toBeGreaterThan(0);
    expect(await notifier().escalate()).toBe(0);
  });

  it('a notification whose alarm was released before it was sent is cancelled, not sent', async () => {
    sms.answerWith(() => ({ status: 503, body: {} }));
    await press('NTF-RDR1', 'sitting_up_suspected');
    const alarm = (await app.call(alarmCalls.alarmLogUnDeal, { alertType: 'SITTING_UP' }, { token: w.aHome.token }))
      .data?.rows[0];
    const sittingUp = () => sms.received.filter((r) => String(r.body.text).includes('sitting up')).length;
    // Refused once: it waits for its retry when the alarm is handled.
    await until(async () => sittingUp() === 1 && (await rowsOf(alarm?.id ?? 0)).some((r) => r.lastError), {
      what: 'a refused first try',
    });
    await app.call(alarmCalls.alarmRelieve, { id: alarm?.id ?? 0, reason: 'CHECKED' }, { token: w.aHome.token });
    sms.answerWith(() => ({ status: 200, body: {} }));
    const before = sittingUp();
    clock.advance(400_000);
    await notifier().kick();
    expect(sittingUp()).toBe(before);
    expect((await rowsOf(alarm?.id ?? 0)).find((r) => r.channel === 'sms')?.state).toBe('cancelled');
  });

  it("a bed's own receivers and modes replace its community's; null gives them back", async () => {
    sms.answerWith(() => ({ status: 200, body: {} }));
    const night = await makeCaregiver(app, w.aHome.token, 'Night');
    const own = await app.call(
      alarmCalls.saveBedAlarmSetting,
      { userId: residentId, rules: null, receivers: { receiverIds: [night.id], notify: ['sms'] } },
      { token: w.aHome.token },
    );
    expect(own.status, own.msg).toBe(200);
    const shown = await app.call(alarmCalls.bedAlarmSetting, { userId: residentId }, { token: w.aHome.token });
    expect(shown.data).toMatchObject({
      custom: false,
      receivers: { receiverIds: [night.id], notify: ['sms'] },
      communityReceivers: { notify: ['sms', 'chat', 'page'] },
    });
    // The earlier tests' alarms of the radar are handled: this fall is a new alarm.
    const open = await app.call(alarmCalls.alarmLogUnDeal, { keyWord: 'NTF-RDR1' }, { token: w.aHome.token });
    for (const row of open.data?.rows ?? [])
      await app.call(alarmCalls.alarmRelieve, { id: row.id, reason: 'CHECKED' }, { token: w.aHome.token });
    await press('NTF-RDR1', 'fall_suspected');
    const suspected = (
      await app.call(alarmCalls.alarmLogUnDeal, { alertType: 'FALL_SUSPECTED' }, { token: w.aHome.token })
    ).data?.rows[0];
    // This alarm's notifications (earlier tests' retries may still be arriving at the fakes).
    await until(async () => (await rowsOf(suspected?.id ?? 0)).some((r) => r.state === 'sent'), {
      what: "the bed's receiver told",
    });
    const planned = await rowsOf(suspected?.id ?? 0);
    expect(planned.map((r) => [r.channel, r.target])).toEqual([['sms', night.phone]]);
    expect(sms.received.some((r) => r.body.to === night.phone)).toBe(true);

    // Back to the community's receivers; the rules were never changed by this.
    await app.call(
      alarmCalls.saveBedAlarmSetting,
      { userId: residentId, rules: null, receivers: null },
      { token: w.aHome.token },
    );
    const back = await app.call(alarmCalls.bedAlarmSetting, { userId: residentId }, { token: w.aHome.token });
    expect(back.data).toMatchObject({ receivers: null, custom: false, updateTime: null });
  });

  it('refuses a bed receiver that is no caregiver the home can see, and keeps what was saved', async () => {
    const res = await app.call(
      alarmCalls.saveBedAlarmSetting,
      { userId: residentId, rules: null, receivers: { receiverIds: [2_000_000], notify: ['sms'] } },
      { token: w.aHome.token },
    );
    expect(res.msgKey).toBe('not_found');
    const kept = await app.call(alarmCalls.bedAlarmSetting, { userId: residentId }, { token: w.aHome.token });
    expect(kept.data?.receivers).toBeNull();
  });
});
