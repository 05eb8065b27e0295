import {
  alarmCalls,
  changeProvider,
  MONITOR_LIMITS,
  monitorCalls,
  type CallRequest,
  type LiveResident,
} from '@vigil/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { alarms, deviceMinutes, focusResidents, providers, residents } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { defaultBedRules } from '../alarms/bed-alarm-settings.service.ts';
import { T } from '../devices/device-test-support.ts';
import { until } from '../../test/until.ts';
import { monitorWorld, streamVitals, type MonitorWorld } from './monitor-fixtures.ts';

describeEachDb('live monitoring calls (%s)', (target) => {
  let app: TestApp;
  let w: MonitorWorld;
  const clock = new ManualClock(new Date());

  const list = async (token: string, input: Partial<CallRequest<typeof monitorCalls.monitorUserList>> = {}) => {
    const res = await app.call(monitorCalls.monitorUserList, { pageSize: 50, ...input }, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data ?? { rows: [], total: -1, pageNum: 0, pageSize: 0 };
  };
  const names = (rows: LiveResident[]) => rows.map((r) => r.userName.replace(/^\S+ /, ''));
  const openAlarm = (residentId: number, deviceId: string, alertType: string, level: number, raisedAt: Date) =>
    app.database.db
      .insert(alarms)
      .values({
        providerId: w.aHome.id,
        deviceId,
        deviceType: T.sleep,
        residentId,
        alertType,
        level,
        startedAt: raisedAt,
        raisedAt,
        lastAt: raisedAt,
      })
      .returning();

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    w = await monitorWorld(app, 'Mon');
  });
  afterAll(() => app?.close());

  it('lists the checked-in residents of the caller’s scope by area, floor, room and bed, never another provider’s', async () => {
    const own = await list(w.aHome.token);
    expect(names(own.rows)).toEqual(['Cleo', 'Ada', 'Dora', 'Bert']);
    expect(own.total).toBe(4);
    expect(own.rows[1]).toMatchObject({
      userId: w.ids.ada,
      gender: '1',
      age: expect.any(Number),
      bunk: 'Mon 101-1',
      room: 'Mon 101',
      floorArea: 'Mon Mon Area / Mon Mon Area F1',
      communityName: 'Mon Club',
      away: false,
      focus: false,
      pendingAlarms: 0,
      alertLevel: null,
      vitals: { userId: w.ids.ada, deviceId: w.devices.ada, online: false, heartRate: null, ts: null },
    });
    // Cleo's bed has no device: no vitals at all.
    expect(own.rows[0]?.vitals).toBeNull();
    // The parent provider sees its home's residents once it chooses the home; the other provider only its own.
    expect((await list(w.aGroup.token)).total).toBe(0);
    const [home] = await app.database.db.select().from(providers).where(eq(providers.id, w.aHome.id));
    const groupAtHome = await app.login(w.aGroup.userName, w.aGroup.password);
    await app.call(changeProvider, { domain: home?.domain ?? '' }, { token: groupAtHome });
    expect((await list(groupAtHome)).total).toBe(4);
    expect(names((await list(w.bGroup.token)).rows)).toEqual(['Fay']);
    // A resident who left the bed is no longer listed.
    await app.database.db.update(residents).set({ state: 'checkedOut' }).where(eq(residents.id, w.ids.cleo));
    expect(names((await list(w.aHome.token)).rows)).toEqual(['Ada', 'Dora', 'Bert']);
    await app.database.db.update(residents).set({ state: 'checkedIn' }).where(eq(residents.id, w.ids.cleo));
  });

  it('filters by name, bed or room, by area or floor, by community, and pages', async () => {
    expect(names((await list(w.aHome.token, { keyWord: 'bert' })).rows)).toEqual(['Bert']);
    expect(names((await list(w.aHome.token, { keyWord: '101' })).rows)).toEqual(['Ada', 'Dora']);
    expect(names((await list(w.aHome.token, { keyWord: '102-1' })).rows)).toEqual(['Bert']);
    expect(names((await list(w.aHome.token, { keyWord: 'Fay' })).rows)).toEqual([]);
    expect(names((await list(w.aHome.token, { areaId: w.places.otherArea })).rows)).toEqual(['Cleo']);
    expect(names((await list(w.aHome.token, { areaId: w.places.monFloor })).rows)).toEqual(['Ada', 'Dora', 'Bert']);
    expect(names((await list(w.aHome.token, { communityId: w.places.community })).rows)).toEqual(['Ada']);
    const second = await list(w.aHome.token, { pageSize: 2, pageNum: 2 });
    expect([names(second.rows), second.total]).toEqual([['Dora', 'Bert'], 4]);
    const bad = await app.call(
      monitorCalls.monitorUserList,
      { pageSize: 50, state: 'asleep' as 'inBed' },
      {
        token: w.aHome.token,
      },
    );
    expect(bad.httpStatus).toBeLessThan(500);
    expect(bad.status).not.toBe(200);
  });

  it('filters by live state: in bed, out of bed, offline, with an open alarm, without a monitor', async () => {
    await streamVitals(app, w.devices.ada, { hr: 64, inBed: true });
    await streamVitals(app, w.devices.bert, { hr: 70, inBed: false });
    const state = async (s: 'inBed' | 'outOfBed' | 'offline' | 'alarm' | 'noDevice') =>
      names((await list(w.aHome.token, { state: s })).rows);
    expect(await state('inBed')).toEqual(['Ada']);
    expect(await state('outOfBed')).toEqual(['Bert']);
    expect(await state('offline')).toEqual(['Dora']);
    expect(await state('noDevice')).toEqual(['Cleo']);
    expect(await state('alarm')).toEqual([]);
    await openAlarm(w.ids.bert, w.devices.bert, 'LEAVE_BED', 2, clock.now());
    await openAlarm(w.ids.bert, w.devices.bert, 'BREATH_STOP', 1, clock.now());
    expect(await state('alarm')).toEqual(['Bert']);
    const [bert] = (await list(w.aHome.token, { state: 'alarm' })).rows;
    expect(bert).toMatchObject({ pendingAlarms: 2, alertLevel: 1 });
    const [ada] = (await list(w.aHome.token, { state: 'inBed' })).rows;
    expect(ada?.vitals).toMatchObject({ online: true, inBed: true, heartRate: 64, breathRate: 15 });
    await app.database.db.update(alarms).set({ releaseKind: 1 }).where(eq(alarms.residentId, w.ids.bert));
  });

  it('keeps focus residents: visible ones only, once each, in the order added, at most the limit', async () => {
    const token = w.aHome.token;
    const add = (userId: number, t = token) => app.call(monitorCalls.addFocusUser, { userId }, { token: t });
    const focusNames = async (t = token) =>
      names((await app.call(monitorCalls.focusUsers, {}, { token: t })).data?.rows ?? []);
    expect((await add(w.ids.bert)).status).toBe(200);
    clock.advance(1_000);
    expect((await add(w.ids.ada)).status).toBe(200);
    clock.advance(1_000);
    expect((await add(w.ids.bert)).status).toBe(200);
    expect(await focusNames()).toEqual(['Bert', 'Ada']);
    expect((await list(token)).rows.filter((r) => r.focus).map((r) => r.userId)).toEqual([w.ids.ada, w.ids.bert]);

    // Another provider's resident does not exist for the caller, and theirs is not shown to the other.
    const foreign = await add(w.ids.fay);
    expect(foreign.msgKey).toBe('not_found');
    expect(await focusNames(w.bGroup.token)).toEqual([]);
    expect((await add(w.ids.ada, w.bGroup.token)).msgKey).toBe('not_found');

    const removed = await app.call(monitorCalls.deleteFocusUser, { userId: w.ids.bert }, { token });
    expect(removed.status).toBe(200);
    expect((await app.call(monitorCalls.deleteFocusUser, { userId: w.ids.bert }, { token })).status).toBe(200);
    expect(await focusNames()).toEqual(['Ada']);

    // Up to the limit with other residents of the provider; one more is refused, Ada again is fine.
    const { db } = app.database;
    const accountId = await accountOf(token);
    const extra = await db
      .insert(residents)
      .values(
        Array.from({ length: MONITOR_LIMITS.maxFocus - 1 }, (_, i) => ({
          providerId: w.aHome.id,
          name: `Mon Extra ${i}`,
          gender: 0,
        })),
      )
      .returning({ id: residents.id });
    await db
      .insert(focusResidents)
      .values(extra.map((r) => ({ accountId, residentId: r.id, providerId: w.aHome.id, addedAt: clock.now() })));
    const over = await add(w.ids.bert);
    expect(over.msgKey).toBe('monitor.focusLimit');
    expect(over.msg).toContain(String(MONITOR_LIMITS.maxFocus));
    expect((await add(w.ids.ada)).status).toBe(200);
    await db.delete(focusResidents).where(
      and(
        eq(focusResidents.accountId, accountId),
        inArray(
          focusResidents.residentId,
          extra.map((r) => r.id),
        ),
      ),
    );
  });

  it('answers the resident page: live state, the devices of the bed and room, the last hour, today’s alarms', async () => {
    const now = clock.now();
    const minuteAgo = (m: number) => new Date(Math.floor(now.getTime() / 60_000) * 60_000 - m * 60_000);
    const minute = (at: Date, hrAvg: number) => ({
      deviceId: w.devices.ada,
      minute: at,
      providerId: w.aHome.id,
      residentId: w.ids.ada,
      samples: 60,
      hrSamples: 60,
      hrAvg,
      rrSamples: 60,
      rrAvg: 14.26,
      inBedSeconds: 60,
      asleepSeconds: 0,
      moveAvg: 1,
      moveMax: 3,
    });
    await app.database.db
      .insert(deviceMinutes)
      .values([minute(minuteAgo(90), 50), minute(minuteAgo(30), 61.44), minute(minuteAgo(5), 63)]);
    const [today] = await openAlarm(w.ids.ada, w.devices.ada, 'NO_TURN_OVER', 2, new Date(now.getTime() - 60_000));
    await openAlarm(w.ids.ada, w.devices.ada, 'BODY_MOVE', 2, new Date(now.getTime() - 30 * 3_600_000));
    await streamVitals(app, w.devices.ada, { hr: 66 });

    const res = await app.call(monitorCalls.residentLive, { userId: w.ids.ada }, { token: w.aHome.token });
    expect(res.status, res.msg).toBe(200);
    const page = res.data;
    // Both alarms are open (pending), only one was raised today.
    expect(page?.resident).toMatchObject({
      userId: w.ids.ada,
      pendingAlarms: 2,
      vitals: { heartRate: 66, online: true },
    });
    // Each device as the device list shows it (decision 0034): the streaming monitor is installed at
    // its bed with its sensor initialised; the radar on another bed of the room has never spoken.
    const placed = {
      installed: true,
      installState: 'bed',
      paired: false,
      pairState: null,
      signal: null,
      signalUnit: null,
    };
    expect(page?.devices).toEqual([
      {
        deviceId: w.devices.ada,
        deviceType: T.sleep,
        online: true,
        battery: null,
        lastSeen: expect.any(Number),
        ...placed,
        sensorInitialised: true,
        sensorState: 'initialised',
      },
      {
        deviceId: w.devices.radar,
        deviceType: T.fallAbroad,
        online: false,
        battery: null,
        lastSeen: null,
        ...placed,
        sensorInitialised: false,
        sensorState: null,
      },
    ]);
    expect(page?.history).toEqual([
      { ts: minuteAgo(30).getTime() / 1000, heartRate: 61.4, breathRate: 14.3, inBedSeconds: 60 },
      { ts: minuteAgo(5).getTime() / 1000, heartRate: 63, breathRate: 14.3, inBedSeconds: 60 },
    ]);
    expect(page?.alarmsToday.map((a) => a.id)).toEqual([today?.id]);
    // The charts' bands: the bed's limits as the alarm engine applies them, the defaults here…
    expect(page?.limits).toEqual({ heartMin: 40, heartMax: 120, breathMin: 8, breathMax: 30 });
    // …and the resident's own once saved.
    const saved = await app.call(
      alarmCalls.saveBedAlarmSetting,
      { userId: w.ids.ada, rules: { ...defaultBedRules(), heartMin: 45, heartMax: 110, breathMin: 6, breathMax: 28 } },
      { token: w.aHome.token },
    );
    expect(saved.status, saved.msg).toBe(200);
    await until(
      async () =>
        (await app.call(monitorCalls.residentLive, { userId: w.ids.ada }, { token: w.aHome.token })).data?.limits
          .heartMax === 110,
      { what: 'the resident page showing the saved limits' },
    );
    expect(
      (await app.call(monitorCalls.residentLive, { userId: w.ids.ada }, { token: w.aHome.token })).data?.limits,
    ).toEqual({ heartMin: 45, heartMax: 110, breathMin: 6, breathMax: 28 });
    await app.call(alarmCalls.saveBedAlarmSetting, { userId: w.ids.ada, rules: null }, { token: w.aHome.token });

    // Another provider's caller: not found, like any id out of scope.
    const foreign = await app.call(monitorCalls.residentLive, { userId: w.ids.ada }, { token: w.bGroup.token });
    expect([foreign.status === 200, foreign.msgKey]).toEqual([false, 'not_found']);
  });

  it('answers how many residents a session now follows: those it may see', async () => {
    const res = await app.call(
      monitorCalls.subscribeVitals,
      { userIds: [w.ids.ada, w.ids.fay, w.ids.ada, 2_000_000_000] },
      { token: w.aHome.token },
    );
    expect(res.data).toEqual({ subscribed: 1 });
    const tooMany = await app.call(
      monitorCalls.subscribeVitals,
      { userIds: Array.from({ length: MONITOR_LIMITS.maxSubscribed + 1 }, (_, i) => i + 1) },
      { token: w.aHome.token },
    );
    expect([tooMany.httpStatus < 500, tooMany.status === 200]).toEqual([true, false]);
  });

  const accountOf = async (token: string): Promise<number> => {
    const outcome = await app.services.sessions.authenticate(token);
    if (outcome.kind !== 'ok') throw new Error('session ended');
    return outcome.caller.accountId;
  };
});
