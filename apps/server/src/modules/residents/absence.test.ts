import {
  bunkCheckOut,
  endAbsence,
  getResident,
  residentList,
  residentSummary,
  startAbsence,
  type Role,
} from '@vigil/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { auditLog, residentAbsences } from '../../db/schema.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { checkIn, mustInsert, seedPlaces } from './resident-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeEachDb('temporary absences (%s)', (target) => {
  let app: TestApp;
  let home: { id: number; token: string };
  let other: { id: number; token: string };
  let beds: number[];
  let nextBed = 0;

  const at = (offsetMs: number) => new Date(app.clock.now().getTime() + offsetMs).toISOString();
  /** A fresh resident checked in now to a free bed. */
  const checkedIn = async (token = home.token) => {
    const id = await mustInsert(app, token);
    await checkIn(app, token, id, beds[nextBed++] ?? 0);
    return id;
  };
  const detail = async (id: number) => (await app.call(getResident, { id }, { token: home.token })).data;
  const start = (
    input: { userId: number; startTime?: string; endTime?: string; reason?: string },
    token = home.token,
  ) => app.call(startAbsence, input, { token });

  beforeAll(async () => {
    app = await createTestApp(target, {
      clock: new ManualClock(new Date('2026-03-15T12:00:00Z')),
      env: { SESSION_IDLE_MINUTES: '43200' },
    });
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const h = await makeProvider(app, admin, 'Away Home');
    home = { id: h.id, token: await app.login(h.userName, h.password) };
    const o = await makeProvider(app, admin, 'Away Other');
    other = { id: o.id, token: await app.login(o.userName, o.password) };
    beds = (await seedPlaces(app, home.id, 'Away', 20)).beds.map((b) => b.id);
  });
  afterAll(() => app?.close());

  it('starts an absence of a checked-in resident: away in list, detail and summary; audited', async () => {
    const id = await checkedIn();
    app.clock.advance(HOUR);
    const res = await start({ userId: id, reason: 'Hospital check-up', endTime: at(4 * HOUR) });
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toMatchObject({
      startTime: app.clock.now().toISOString(),
      endTime: at(4 * HOUR),
      reason: 'Hospital check-up',
      active: true,
    });
    const d = await detail(id);
    expect(d?.away).toBe(true);
    expect(d?.absence).toEqual(res.data);
    const row = (await app.call(residentList, { keyWord: d?.name ?? '' }, { token: home.token })).data?.rows[0];
    expect(row?.away).toBe(true);
    expect((await app.call(residentSummary, {}, { token: home.token })).data?.away).toBeGreaterThanOrEqual(1);
    const audit = await app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'resident.absenceStart'), eq(auditLog.targetId, String(id))));
    expect(audit).toHaveLength(1);
    // One open absence at a time.
    const second = await start({ userId: id });
    expect(second.status).toBe(300);
    expect(second.msgKey).toBe('absence.exists');
    // Ending it: the resident is back, the absence stays as history ended now.
    const end = await app.call(endAbsence, { userId: id }, { token: home.token });
    expect(end.status).toBe(200);
    expect((await detail(id))?.away).toBe(false);
    expect((await detail(id))?.absence).toBeNull();
    const [history] = await app.database.db.select().from(residentAbsences).where(eq(residentAbsences.residentId, id));
    expect(history?.endsAt?.toISOString()).toBe(app.clock.now().toISOString());
    const none = await app.call(endAbsence, { userId: id }, { token: home.token });
    expect(none.status).toBe(300);
    expect(none.msgKey).toBe('absence.none');
  });

  it('ends by itself at the expected return, so alarms never stay paused', async () => {
    const id = await checkedIn();
    expect((await start({ userId: id, endTime: at(2 * HOUR) })).status).toBe(200);
    app.clock.advance(2 * HOUR);
    expect((await detail(id))?.away).toBe(false);
    expect((await detail(id))?.absence).toBeNull();
    expect((await app.call(endAbsence, { userId: id }, { token: home.token })).msgKey).toBe('absence.none');
    expect((await start({ userId: id })).status).toBe(200);
  });

  it('plans an absence ahead: not away until it starts; ending a planned one removes it', async () => {
    const id = await checkedIn();
    const planned = await start({ userId: id, startTime: at(DAY), endTime: at(3 * DAY) });
    expect(planned.data?.active).toBe(false);
    expect((await detail(id))?.away).toBe(false);
    expect((await detail(id))?.absence?.id).toBe(planned.data?.id);
    expect((await start({ userId: id })).msgKey).toBe('absence.exists');
    expect((await app.call(endAbsence, { userId: id }, { token: home.token })).status).toBe(200);
    expect(await app.database.db.select().from(residentAbsences).where(eq(residentAbsences.residentId, id))).toEqual(
      [],
    );
    const later = await start({ userId: id, startTime: at(DAY) });
    expect(later.status).toBe(200);
    app.clock.advance(DAY);
    expect((await detail(id))?.away).toBe(true);
  });

  it('refuses times out of range with a clear message', async () => {
    const id = await checkedIn();
    app.clock.advance(2 * DAY);
    const cases: [Record<string, string>, string][] = [
      [{ startTime: at(-25 * HOUR) }, 'absence.startRange'],
      [{ startTime: at(31 * DAY) }, 'absence.startRange'],
      [{ startTime: at(-HOUR), endTime: at(-2 * HOUR) }, 'absence.endBeforeStart'],
      [{ startTime: at(-3 * HOUR), endTime: at(-HOUR) }, 'absence.endPast'],
      [{ endTime: at(367 * DAY) }, 'absence.tooLong'],
    ];
    for (const [times, msgKey] of cases) {
      const res = await start({ userId: id, ...times });
      expect(res.status, msgKey).toBe(400);
      expect(res.msgKey, JSON.stringify(times)).toBe(msgKey);
    }
    const zh = await app.call(
      startAbsence,
      { userId: id, startTime: at(-25 * HOUR) },
      { token: home.token, lang: 'zh-CN' },
    );
    expect(zh.msg).toBe('外出开始时间须在过去 24 小时至未来 30 天之内。');
    for (const startTime of ['2026-03-15 12:00', '2026-03-15T12:00:00', 'tomorrow', '1710000000']) {
      const res = await start({ userId: id, startTime });
      expect(res.status, startTime).toBe(400);
      expect(res.msgKey, startTime).toBe('resident.timeFormat');
      expect(res.msg).toMatch(/^Start time must be a date and time with a time zone/);
    }
    // 23 hours ago and 366 days long are fine; a time with an offset is read as that instant.
    const ok = await start({ userId: id, startTime: at(-23 * HOUR), endTime: at(365 * DAY) });
    expect(ok.status, ok.msg).toBe(200);
    const fresh = await checkedIn();
    const beforeStay = await start({ userId: fresh, startTime: at(-HOUR) });
    expect(beforeStay.msgKey).toBe('absence.beforeAdmission');
    const inTwoHours = new Date(app.clock.now().getTime() + 2 * HOUR);
    const shanghai = new Date(inTwoHours.getTime() + 8 * HOUR).toISOString().replace('Z', '+08:00');
    const offset = await start({ userId: fresh, startTime: shanghai });
    expect(offset.status, offset.msg).toBe(200);
    expect(offset.data?.startTime).toBe(inTwoHours.toISOString());
  });

  it('only checked-in residents go away; an absence of an earlier stay never counts again', async () => {
    const registered = await mustInsert(app, home.token);
    const refused = await start({ userId: registered });
    expect(refused.status).toBe(300);
    expect(refused.msgKey).toBe('absence.notCheckedIn');
    const id = await checkedIn();
    expect((await start({ userId: id })).status).toBe(200);
    expect((await app.call(bunkCheckOut, { userId: id }, { token: home.token })).status).toBe(200);
    expect((await detail(id))?.away).toBe(false);
    expect((await start({ userId: id })).msgKey).toBe('absence.notCheckedIn');
    app.clock.advance(HOUR);
    await checkIn(app, home.token, id, beds[nextBed++] ?? 0);
    expect((await detail(id))?.away).toBe(false);
    expect((await detail(id))?.absence).toBeNull();
    expect((await start({ userId: id })).status).toBe(200);
  });

  it('lets care staff record absences; another tenant’s resident is not_found; roles without care are refused', async () => {
    const id = await checkedIn();
    const worker = await makeAccount(app, home.token, 'awayWorker1', 'SOCIAL_WORKER');
    const workerToken = await app.login(worker.userName, worker.password);
    expect((await start({ userId: id }, workerToken)).status).toBe(200);
    expect((await app.call(endAbsence, { userId: id }, { token: workerToken })).status).toBe(200);
    const theirs = await mustInsert(app, other.token, { name: 'Foreign Away' });
    const otherBeds = await seedPlaces(app, other.id, 'OtherAway', 1);
    await checkIn(app, other.token, theirs, otherBeds.beds[0]?.id ?? 0);
    for (const res of [
      await start({ userId: theirs }),
      await app.call(endAbsence, { userId: theirs }, { token: home.token }),
    ]) {
      expect(res.status).toBe(300);
      expect(res.msgKey).toBe('not_found');
    }
    expect(
      await app.database.db.select().from(residentAbsences).where(eq(residentAbsences.residentId, theirs)),
    ).toEqual([]);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    for (const [userName, role] of [
      ['awayGov0001', 'GOVERNMENT'],
      ['awaySenior1', 'SENIOR_ROLE'],
    ] as [string, Role][]) {
      const account = await makeAccount(app, admin, userName, role);
      const token = await app.login(account.userName, account.password);
      expect((await start({ userId: id }, token)).msgKey, role).toBe('no_permission');
      expect((await app.call(endAbsence, { userId: id }, { token })).msgKey, role).toBe('no_permission');
    }
  });

  it('serialises concurrent starts: exactly one absence opens', async () => {
    const id = await checkedIn();
    const results = await Promise.all(Array.from({ length: 5 }, () => start({ userId: id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.msgKey === 'absence.exists')).toHaveLength(4);
  });
});
