import { alarmCalls, calls, defaultAlarmRules, topicOf, type AlarmRules } from '@vigil/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { alarms, communities, residents, residentSleepSettings } from '../../db/schema.ts';
import { createTestApp, dbTargets, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../devices/device-test-support.ts';
import { defaultBedRules } from './bed-alarm-settings.service.ts';
import { AlarmEngine } from './engine/alarm-engine.ts';
import type { Decision, Subject, VitalsSample } from './engine/engine-types.ts';
import { withLeaveBedWatch } from './watch-directory.ts';

const { saveBedAlarmSetting } = alarmCalls;
const { saveBedSleepSetting, saveUserSleepConfig } = calls;

const SLEEP = { sleepTime: '22:00', wakeTime: '06:00', sensitivity: 'medium', mattress: 'sponge' } as const;
const outOfBed: VitalsSample = { hr: 0, rr: 0, inBed: false, move: 0 };

describe('the bed-leaving watch applied to a rule set', () => {
  it('off switches LEAVE_BED off, once; sleepTime makes the sleep window its range; nothing else changes', () => {
    const rules = defaultAlarmRules();
    expect(withLeaveBedWatch(rules, undefined)).toBe(rules);
    const off = withLeaveBedWatch(rules, { mode: 'off' });
    expect(off).toEqual({ ...rules, off: ['LEAVE_BED'] });
    expect(withLeaveBedWatch(off, { mode: 'off' }).off).toEqual(['LEAVE_BED']);
    const narrowed = withLeaveBedWatch(
      { ...rules, ranges: { ...rules.ranges, LEAVE_BED: { start: '08:00', end: '20:00' } } },
      { mode: 'sleepTime', window: { start: '22:00', end: '06:00' } },
    );
    expect(narrowed.ranges).toEqual({ ...rules.ranges, LEAVE_BED: { start: '22:00', end: '06:00' } });
    expect(narrowed.off).toEqual([]);
    expect(rules.ranges.LEAVE_BED).toEqual({ start: '00:00', end: '00:00' });
  });

  it('the engine raises LEAVE_BED only inside the sleep window', () => {
    // Local time is UTC here.
    const engine = new AlarmEngine((d) => d.getUTCHours() * 60 + d.getUTCMinutes());
    const rules: AlarmRules = withLeaveBedWatch(defaultAlarmRules(), {
      mode: 'sleepTime',
      window: { start: '22:00', end: '06:00' },
    });
    const subject: Subject = {
      deviceId: 'SLEEP-1',
      kind: 'sleep_monitor',
      typeCode: 49,
      deviceRowId: 1,
      providerId: 1,
      bedId: 1,
      residentId: 1,
      roomId: null,
      areaId: null,
      caregiverId: null,
      occupied: true,
      absent: false,
      rules,
    };
    const feed = (from: Date, seconds: number): Decision[] =>
      Array.from({ length: seconds + 1 }, (_, i) =>
        engine.vitals(subject, outOfBed, new Date(from.getTime() + i * 1000)),
      ).flat();
    const raised = (ds: Decision[]) => ds.filter((d) => d.op === 'raise').map((d) => d.key.type);
    const leftBedTime = rules.durations.leftBedTime;
    expect(raised(feed(new Date('2026-11-26T12:00:00Z'), leftBedTime + 60))).toEqual([]);
    // Out of bed since before the window opened: counted from 22:00, raised after the full duration.
    const evening = feed(new Date('2026-11-26T21:55:00Z'), 300 + leftBedTime);
    expect(raised(evening)).toEqual(['LEAVE_BED']);
    expect(evening.find((d) => d.op === 'raise')).toMatchObject({ since: new Date('2026-11-26T22:00:00Z') });
  });
});

describe.each(dbTargets())('a resident’s bed-leaving watch from their sleep settings on %s', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  const clock = new ManualClock(new Date('2026-11-26T12:00:00Z'));
  let seq = 1;
  let bedNo = 0;

  const watch = () => app.services.alarms.watch;
  const resident = async (name: string) => {
    const placed = await placeBed(app, w.aHome.id, {
      area: `Watch Area ${++bedNo}`,
      room: `W${bedNo}`,
      bed: `W${bedNo}-1`,
      resident: name,
    });
    return { residentId: placed.residentId ?? 0, bedId: placed.bedId };
  };
  const saveSleep = async (residentId: number, leaveBedMode: 'off' | 'allDay' | 'sleepTime') => {
    const res = await app.call(
      saveBedSleepSetting,
      { userIds: [residentId], leaveBedMode, ...SLEEP },
      { token: w.aHome.token },
    );
    expect(res.status, res.msg).toBe(200);
  };

  beforeAll(async () => {
    app = await createTestApp(target, { clock, env: { TIME_ZONE: 'UTC' } });
    w = await deviceWorld(app, 'Lbw');
  });
  afterAll(() => app?.close());

  it('rulesOf: off and sleepTime narrow LEAVE_BED; allDay, nothing saved or an unreadable row change nothing', async () => {
    const plain = await resident('Plain Pia');
    const allDay = await resident('All-day Al');
    const night = await resident('Night Nell');
    const never = await resident('Never Ned');
    const odd = await resident('Odd Oda');
    await saveSleep(allDay.residentId, 'allDay');
    await saveSleep(night.residentId, 'sleepTime');
    await saveSleep(never.residentId, 'off');
    await app.database.db.insert(residentSleepSettings).values({
      residentId: odd.residentId,
      providerId: w.aHome.id,
      leaveBedMode: 'sleepTime',
      ...SLEEP,
      wakeTime: '22:00',
    });
    await watch().load();
    const rulesOf = (r: { residentId: number }) => watch().rulesOf(w.aHome.id, r.residentId);

    const shared = rulesOf(plain);
    expect(shared).toEqual({ ...defaultAlarmRules(), levels: shared.levels });
    // Residents whose settings change nothing share the provider's cached rule set.
    expect(rulesOf(allDay)).toBe(shared);
    expect(rulesOf(odd)).toBe(shared);
    expect(rulesOf(night)).toEqual({
      ...shared,
      ranges: { ...shared.ranges, LEAVE_BED: { start: '22:00', end: '06:00' } },
    });
    expect(rulesOf(never)).toEqual({ ...shared, off: ['LEAVE_BED'] });
    // Built once per load, not on every sample.
    expect(rulesOf(night)).toBe(rulesOf(night));
  });

  it('a save reaches the engine at once: LEAVE_BED not raised outside the window, raised inside it', async () => {
    await loadStock(app, w.admin, [{ deviceId: 'LBW-S1', deviceType: T.sleep }]);
    await addDevice(app, w.aHome.token, 'LBW-S1', T.sleep);
    const { residentId, bedId } = await resident('Wanderer Wu');
    await linkBed(app, bedId, 'LBW-S1');
    await app.services.gateway.directory.load();
    // The bed's own rules: a one-minute bed-leaving spell, watched by day; the sleep window replaces that range.
    const bedRules = {
      ...defaultBedRules(),
      durations: { ...defaultBedRules().durations, leftBedTime: 60 },
      ranges: { ...defaultBedRules().ranges, LEAVE_BED: { start: '08:00', end: '20:00' } },
    };
    const rulesSaved = await app.call(
      saveBedAlarmSetting,
      { userId: residentId, rules: bedRules },
      { token: w.aHome.token },
    );
    expect(rulesSaved.status, rulesSaved.msg).toBe(200);
    await saveSleep(residentId, 'sleepTime');
    await until(() => watch().rulesOf(w.aHome.id, residentId).ranges.LEAVE_BED.start === '22:00', {
      what: 'the engine using the saved sleep window',
    });
    expect(watch().rulesOf(w.aHome.id, residentId).durations.leftBedTime).toBe(60);

    const telemetry = (body: VitalsSample) =>
      app.services.gateway.ingest.handle(
        topicOf('LBW-S1', 'telemetry'),
        Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, asleep: false, ...body })),
      );
    const outFor = async (seconds: number) => {
      for (let i = 0; i <= seconds; i++) {
        await telemetry(outOfBed);
        if (i < seconds) clock.advance(1000);
      }
      await app.services.alarms.runner.flush();
    };
    const leaveBedAlarms = async () =>
      app.database.db
        .select()
        .from(alarms)
        .where(and(eq(alarms.deviceId, 'LBW-S1'), eq(alarms.alertType, 'LEAVE_BED')));

    // 12:00, inside the bed rules' old range but outside the sleep window.
    await outFor(90);
    expect(await leaveBedAlarms()).toEqual([]);
    await telemetry({ hr: 62, rr: 14, inBed: true, move: 20 });

    // 23:00, inside the sleep window.
    clock.set(new Date('2026-11-26T23:00:00Z'));
    await outFor(70);
    const raised = await leaveBedAlarms();
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ residentId, bedId, startedAt: new Date('2026-11-26T23:00:00Z') });
    await telemetry({ hr: 62, rr: 14, inBed: true, move: 20 });
    await app.services.alarms.runner.flush();

    // Switched off: not even at night. (Eleven hours on, the morning's session has expired.)
    w.aHome.token = await app.login(w.aHome.userName, w.aHome.password);
    await saveSleep(residentId, 'off');
    await until(() => watch().rulesOf(w.aHome.id, residentId).off.includes('LEAVE_BED'), {
      what: 'the engine switching the watch off',
    });
    clock.advance(60_000);
    await outFor(90);
    expect(await leaveBedAlarms()).toHaveLength(1);
  });
  it('a community save reaches the engine at once too', async () => {
    w.aHome.token = await app.login(w.aHome.userName, w.aHome.password);
    const { residentId } = await resident('Member Mo');
    const [community] = await app.database.db
      .insert(communities)
      .values({ providerId: w.aHome.id, name: 'Watch Club' })
      .returning();
    await app.database.db
      .update(residents)
      .set({ communityId: community?.id ?? 0 })
      .where(eq(residents.id, residentId));
    await watch().load();
    expect(watch().rulesOf(w.aHome.id, residentId).off).not.toContain('LEAVE_BED');
    const res = await app.call(
      saveUserSleepConfig,
      { communityId: community?.id ?? 0, residentId, leaveBedMode: 'off', ...SLEEP },
      { token: w.aHome.token },
    );
    expect(res.status, res.msg).toBe(200);
    await until(() => watch().rulesOf(w.aHome.id, residentId).off.includes('LEAVE_BED'), {
      what: 'the engine hearing of the community save',
      timeoutMs: 5_000,
    });
  });
});
