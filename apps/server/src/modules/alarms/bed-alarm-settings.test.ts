import { alarmCalls, topicOf } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
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
import { residents } from '../../db/schema.ts';
import { makeCaregiver } from '../caregivers/care-fixtures.ts';
import { defaultBedRules } from './bed-alarm-settings.service.ts';

const { bedAlarmSetting, saveBedAlarmSetting, alarmLogUnDeal } = alarmCalls;

describe.each(dbTargets())('a resident’s bed alarm rules on %s', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let residentId = 0;
  const clock = new ManualClock(new Date('2026-11-26T02:00:00Z'));
  let seq = 1;

  beforeAll(async () => {
    app = await createTestApp(target, { clock, env: { TIME_ZONE: 'UTC' } });
    w = await deviceWorld(app, 'Bar');
    await loadStock(app, w.admin, [{ deviceId: 'BAR-S1', deviceType: T.sleep }]);
    await addDevice(app, w.aHome.token, 'BAR-S1', T.sleep);
    const bed = await placeBed(app, w.aHome.id, { area: 'Bar Area', room: 'Bar 1', bed: 'Bar 1-1', resident: 'Ada' });
    residentId = bed.residentId ?? 0;
    await linkBed(app, bed.bedId, 'BAR-S1');
    await app.services.gateway.directory.load();
  });
  afterAll(() => app?.close());

  it('answers the defaults until rules are saved; saved rules apply to the bed’s alarms at once', async () => {
    const first = await app.call(bedAlarmSetting, { userId: residentId }, { token: w.aHome.token });
    // The screen names the resident and the bed, never an id (issue 29, point 10).
    expect(first.data).toMatchObject({
      userId: residentId,
      userName: 'Ada',
      bunk: 'Bar 1-1',
      room: 'Bar 1',
      floorArea: 'Bar Area / Bar Area F1',
      custom: false,
      rules: defaultBedRules(),
      receiverNames: [],
    });
    expect(first.data?.bedId).toEqual(expect.any(Number));

    const rules = {
      ...defaultBedRules(),
      durations: { ...defaultBedRules().durations, leftBedTime: 60 },
      off: ['BREATH_STOP' as const],
    };
    const saved = await app.call(saveBedAlarmSetting, { userId: residentId, rules }, { token: w.aHome.token });
    expect(saved.status, saved.msg).toBe(200);
    expect((await app.call(bedAlarmSetting, { userId: residentId }, { token: w.aHome.token })).data).toMatchObject({
      custom: true,
      rules,
    });
    await until(() => app.services.alarms.watch.rulesOf(w.aHome.id, residentId).durations.leftBedTime === 60, {
      what: 'the engine using the saved rules',
    });

    // Out of bed (and not breathing: switched off here) for a minute: LEAVE_BED only.
    for (let i = 0; i <= 60; i++) {
      await app.services.gateway.ingest.handle(
        topicOf('BAR-S1', 'telemetry'),
        Buffer.from(
          JSON.stringify({
            ts: clock.now().getTime() / 1000,
            seq: seq++,
            hr: 0,
            rr: 0,
            inBed: false,
            asleep: false,
            move: 0,
          }),
        ),
      );
      if (i < 60) clock.advance(1000);
    }
    await app.services.alarms.runner.flush();
    const open = (await app.call(alarmLogUnDeal, { keyWord: 'BAR-S1' }, { token: w.aHome.token })).data?.rows ?? [];
    expect(open.map((a) => a.alertType)).toEqual(['LEAVE_BED']);
  });

  it('refuses limits the wrong way round and a malformed time, with clear messages', async () => {
    const bad = await app.call(
      saveBedAlarmSetting,
      { userId: residentId, rules: { ...defaultBedRules(), breathMin: 30, breathMax: 20 } },
      { token: w.aHome.token },
    );
    expect(bad).toMatchObject({ msgKey: 'alarm.breathLimits' });
    expect(bad.msg).toBe('The lower breathing limit must be below the upper one.');
    const time = await app.call(
      saveBedAlarmSetting,
      { userId: residentId, rules: { ...defaultBedRules(), doorRange: { start: '25:00', end: '06:00' } } },
      { token: w.aHome.token },
    );
    expect(time.status).not.toBe(200);
    expect(time.msg).toMatch(/HH:mm/);
  });

  it('names the receivers by name, enabled caregivers of the resident’s provider only', async () => {
    const zoe = await makeCaregiver(app, w.aHome.token, 'Zoe Night');
    const amy = await makeCaregiver(app, w.aHome.token, 'Amy Day');
    const saved = await app.call(
      saveBedAlarmSetting,
      { userId: residentId, receivers: { receiverIds: [zoe.id, amy.id], notify: ['page'] } },
      { token: w.aHome.token },
    );
    expect(saved.status, saved.msg).toBe(200);
    const res = await app.call(bedAlarmSetting, { userId: residentId }, { token: w.aHome.token });
    expect(res.data).toMatchObject({
      receivers: { receiverIds: [zoe.id, amy.id], notify: ['page'] },
      receiverNames: [
        { id: amy.id, name: 'Amy Day' },
        { id: zoe.id, name: 'Zoe Night' },
      ],
    });
    await app.call(saveBedAlarmSetting, { userId: residentId, receivers: null }, { token: w.aHome.token });
  });

  it('names a resident in no bed as such', async () => {
    const [alone] = await app.database.db
      .insert(residents)
      .values({ providerId: w.aHome.id, name: 'Bea', gender: 1, state: 'registered' })
      .returning();
    const res = await app.call(bedAlarmSetting, { userId: alone?.id ?? 0 }, { token: w.aHome.token });
    expect(res.data).toMatchObject({ userName: 'Bea', bedId: null, bunk: null, room: null, floorArea: null });
  });

  it('goes back to the defaults with null; another provider cannot read or change them', async () => {
    for (const res of [
      await app.call(bedAlarmSetting, { userId: residentId }, { token: w.bGroup.token }),
      await app.call(saveBedAlarmSetting, { userId: residentId, rules: null }, { token: w.bGroup.token }),
    ])
      expect(res.msgKey).toBe('not_found');
    expect((await app.call(bedAlarmSetting, { userId: residentId }, { token: w.aHome.token })).data?.custom).toBe(true);
    await app.call(saveBedAlarmSetting, { userId: residentId, rules: null }, { token: w.aHome.token });
    expect((await app.call(bedAlarmSetting, { userId: residentId }, { token: w.aHome.token })).data).toMatchObject({
      custom: false,
      rules: defaultBedRules(),
    });
  });
});
