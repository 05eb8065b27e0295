import { alarmCalls, reportCalls } from '@vigil/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { residentSleepSettings, sleepReports } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import { defaultBedRules } from '../alarms/bed-alarm-settings.service.ts';
import { monitorWorld, type MonitorWorld } from '../monitor/monitor-fixtures.ts';
import { readPdf } from './pdf/pdf-text.ts';
import { ReportProducer } from './report-producer.ts';
import { ReportScheduler } from './report-scheduler.ts';
import { storeNight } from './report-test-support.ts';

const MINUTE = 60_000;
const ZONE = 'Europe/Prague';
/** The night of 2026-03-02 with the default times (21:00 → 07:00 in Prague, UTC+1): 18:00Z → 06:10Z. */
const WINDOW_START = new Date('2026-03-01T18:00:00Z');
const WINDOW_END = new Date('2026-03-02T06:10:00Z');

describeEachDb('sleep reports: the scheduler and the report calls (%s)', (target) => {
  let app: TestApp;
  let w: MonitorWorld;
  const clock = new ManualClock(new Date('2026-03-02T06:05:00Z'));
  const scheduler = () => app.services.reports.scheduler;
  const rowsOf = (residentId: number) =>
    app.database.db.select().from(sleepReports).where(eq(sleepReports.residentId, residentId));

  beforeAll(async () => {
    app = await createTestApp(target, { clock, env: { TIME_ZONE: ZONE } });
    w = await monitorWorld(app, 'Rep');
    const bedOf = async (residentId: number) => {
      const [row] = await app.services.monitor.monitor['query'].byIds(app.database.db, [residentId], clock.now());
      return row?.bedId ?? 0;
    };
    // Ada and Fay (the other provider's) slept from 21:30 to 07:00 local; Bert's monitor was on
    // for half an hour with nobody in bed; Dora goes to bed later and her monitor sent nothing.
    for (const [name, providerId] of [
      ['ada', w.aHome.id],
      ['fay', w.bGroup.id],
    ] as const) {
      await storeNight(app, {
        deviceId: w.devices[name],
        providerId,
        bedId: await bedOf(w.ids[name]),
        residentId: w.ids[name],
        from: WINDOW_START,
        minutes: 730,
        inBedFrom: 150,
        inBedTo: 720,
      });
    }
    await storeNight(app, {
      deviceId: w.devices.bert,
      providerId: w.aHome.id,
      bedId: await bedOf(w.ids.bert),
      residentId: w.ids.bert,
      from: WINDOW_START,
      minutes: 30,
      inBedFrom: 1000,
      inBedTo: 1000,
    });
    await app.database.db.insert(residentSleepSettings).values({
      residentId: w.ids.dora,
      providerId: w.aHome.id,
      leaveBedMode: 'allDay',
      sleepTime: '23:00',
      wakeTime: '08:00',
      sensitivity: 'medium',
      mattress: 'sponge',
    });
  });
  afterAll(() => app?.close());

  it('makes each reported resident’s report once their night has ended, once', async () => {
    // At 07:05 local the latest ended night is the one before, when no monitor sent anything: a
    // bed just fitted gets no "no data" report.
    expect((await scheduler().tick()).due).toBe(0);
    clock.set(new Date(WINDOW_END.getTime() + MINUTE));
    // Ada, Bert (A) and Fay (B) are due; Dora's night ends at 08:10 local; Cleo has no monitor.
    expect(await scheduler().tick()).toEqual({ due: 3, made: 3, held: 0, failed: 0 });
    expect(await scheduler().tick()).toEqual({ due: 0, made: 0, held: 0, failed: 0 });
    const [ada] = await rowsOf(w.ids.ada);
    expect(ada).toMatchObject({
      night: '2026-03-02',
      state: 'ready',
      windowStart: WINDOW_START,
      windowEnd: WINDOW_END,
    });
    expect((await rowsOf(w.ids.cleo)).length).toBe(0);
    // Dora's night has ended, but her monitor never sent anything: no first report yet.
    clock.set(new Date('2026-03-02T07:11:00Z'));
    expect((await scheduler().tick()).due).toBe(0);
    expect((await rowsOf(w.ids.dora)).length).toBe(0);
  });

  it('answers a scored night with its figures, and a night without data with no score', async () => {
    const ada = await app.call(
      reportCalls.dailyReport,
      { userId: w.ids.ada, date: '2026-03-02' },
      { token: w.aHome.token },
    );
    expect(ada.status, ada.msg).toBe(200);
    const figures = ada.data?.figures;
    expect(ada.data).toMatchObject({
      night: '2026-03-02',
      state: 'ready',
      resident: { userName: 'Rep Ada', bunk: 'Rep 101-1' },
    });
    expect(figures?.insufficient).toBeNull();
    expect(figures?.coverage).toBeGreaterThan(0.99);
    expect(figures?.score).toEqual(expect.any(Number));
    // In bed 21:30 → 07:00: 570 minutes.
    expect(Math.round((figures?.timeInBed ?? 0) / 60)).toBeGreaterThanOrEqual(565);
    expect(figures?.heart?.avg).toBeGreaterThan(50);

    const bert = await app.call(
      reportCalls.dailyReport,
      { userId: w.ids.bert, date: '2026-03-02' },
      { token: w.aHome.token },
    );
    expect(bert.data?.figures).toMatchObject({ insufficient: 'notInBed', score: null, totalSleep: null, ahi: null });
    expect(bert.data?.figures?.coverage).toBeCloseTo(30 / 730, 2);

    const none = await app.call(
      reportCalls.dailyReport,
      { userId: w.ids.ada, date: '2026-02-20' },
      { token: w.aHome.token },
    );
    expect(none.data).toBeNull();
  });

  it('gives the night’s curves: a 30-second hypnogram over the window and the minutes with data', async () => {
    const res = await app.call(
      reportCalls.dailyReportData,
      { userId: w.ids.ada, date: '2026-03-02' },
      { token: w.aHome.token },
    );
    const data = res.data;
    expect(data?.hypnogram).toHaveLength((WINDOW_END.getTime() - WINDOW_START.getTime()) / 30_000);
    expect(data?.minutes).toHaveLength(730);
    expect(data?.minutes[200]).toMatchObject({ inBed: true, heartRate: expect.any(Number), breathRate: 14 });
    expect(data?.minutes[10]).toMatchObject({ inBed: false, heartRate: null });
    expect(data?.hypnogram.slice(400, 1000).filter((s) => s === 3 || s === 2 || s === 1).length).toBeGreaterThan(300);
  });

  it('gives the bed’s heart and breathing limits with the curves, as the alarm engine applies them now', async () => {
    const limits = async () =>
      (await app.call(reportCalls.dailyReportData, { userId: w.ids.ada, date: '2026-03-02' }, { token: w.aHome.token }))
        .data?.limits;
    // The defaults…
    expect(await limits()).toEqual({ heartMin: 40, heartMax: 120, breathMin: 8, breathMax: 30 });
    // …and the resident's own once saved.
    const saved = await app.call(
      alarmCalls.saveBedAlarmSetting,
      { userId: w.ids.ada, rules: { ...defaultBedRules(), heartMin: 45, heartMax: 110, breathMin: 6, breathMax: 28 } },
      { token: w.aHome.token },
    );
    expect(saved.status, saved.msg).toBe(200);
    await until(async () => (await limits())?.heartMax === 110, { what: 'the report showing the saved limits' });
    expect(await limits()).toEqual({ heartMin: 45, heartMax: 110, breathMin: 6, breathMax: 28 });
    await app.call(alarmCalls.saveBedAlarmSetting, { userId: w.ids.ada, rules: null }, { token: w.aHome.token });
  });

  it('shows a provider its own residents’ reports only', async () => {
    const foreign = await app.call(
      reportCalls.dailyReport,
      { userId: w.ids.fay, date: '2026-03-02' },
      { token: w.aHome.token },
    );
    expect(foreign.msgKey).toBe('not_found');
    const own = await app.call(
      reportCalls.dailyReport,
      { userId: w.ids.fay, date: '2026-03-02' },
      { token: w.bGroup.token },
    );
    expect(own.data?.state).toBe('ready');
    const page = await app.call(reportCalls.dailyReportPageList, { pageSize: 50 }, { token: w.aHome.token });
    expect(page.data?.rows.map((r) => `${r.userName} ${r.night}`)).toEqual([
      'Rep Ada 2026-03-02',
      'Rep Bert 2026-03-02',
    ]);
    const users = await app.call(reportCalls.sleepReportUserList, { pageSize: 50 }, { token: w.aHome.token });
    expect(users.data?.rows.map((r) => [r.userName, r.reports, r.latest?.night])).toEqual([
      ['Rep Ada', 1, '2026-03-02'],
      ['Rep Dora', 0, undefined],
      ['Rep Bert', 1, '2026-03-02'],
    ]);
  });

  it('exports a night and a month as PDF in the language asked for, drawn off the server thread', async () => {
    const night = await app.download(
      reportCalls.dailyReportPdf,
      { userId: w.ids.ada, date: '2026-03-02', lang: 'de' },
      { token: w.aHome.token },
    );
    expect(night.filename).toBe('Rep Ada-2026-03-02.pdf');
    const bytes = night.bytes;
    expect(night.contentType).toBe('application/pdf');
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = await readPdf(bytes);
    const ada = await app.call(
      reportCalls.dailyReport,
      { userId: w.ids.ada, date: '2026-03-02' },
      { token: w.aHome.token },
    );
    expect(text.flat).toContain('Rep Ada');
    expect(text.flat).toContain(String(ada.data?.figures?.score));
    expect(text.fontFiles).toBeGreaterThan(0);
    const month = await app.download(
      reportCalls.monthReportPdf,
      { userId: w.ids.ada, month: '2026-03' },
      { token: w.aHome.token, lang: 'zh-CN' },
    );
    expect(month.filename).toBe('Rep Ada-2026-03.pdf');
    expect((await readPdf(month.bytes)).flat).toContain('Rep Ada');
    // A night without a report, and another provider's resident, are refused.
    await expect(
      app.download(reportCalls.dailyReportPdf, { userId: w.ids.ada, date: '2026-02-20' }, { token: w.aHome.token }),
    ).rejects.toMatchObject({ msgKey: 'report.notFound' });
    await expect(
      app.download(reportCalls.dailyReportPdf, { userId: w.ids.fay, date: '2026-03-02' }, { token: w.aHome.token }),
    ).rejects.toMatchObject({ msgKey: 'not_found' });
  });

  it('filters the daily list by resident, dates and risk grade', async () => {
    const call = (input: Record<string, unknown>) =>
      app.call(reportCalls.dailyReportPageList, { pageSize: 50, ...input }, { token: w.aHome.token });
    expect((await call({ userId: w.ids.ada })).data?.rows.map((r) => r.night)).toEqual(['2026-03-02']);
    expect((await call({ startDate: '2026-03-03' })).data?.total).toBe(0);
    const adaGrade = (await call({ userId: w.ids.ada })).data?.rows[0]?.riskGrade;
    expect((await call({ riskGrade: adaGrade })).data?.rows.map((r) => r.userId)).toContain(w.ids.ada);
    const bad = await call({ startDate: '2026-13-01' });
    expect(bad.msgKey).toBe('report.dateFormat');
    expect(bad.msg).toMatch(/YYYY-MM-DD/);
    expect((await call({ userId: w.ids.fay })).msgKey).toBe('not_found');
  });

  it('gives the month from the nights, and the months and time period of a resident', async () => {
    const month = await app.call(
      reportCalls.monthReport,
      { userId: w.ids.ada, month: '2026-03' },
      { token: w.aHome.token },
    );
    expect(month.data).toMatchObject({ month: '2026-03', scoredNights: 1, insufficientNights: 0 });
    expect(month.data?.nights.map((n) => [n.night, n.insufficient])).toEqual([['2026-03-02', null]]);
    expect(month.data?.averages.score).toBe(month.data?.nights[0]?.score);
    const bertMonth = await app.call(
      reportCalls.monthReport,
      { userId: w.ids.bert, month: '2026-03' },
      { token: w.aHome.token },
    );
    expect(bertMonth.data).toMatchObject({ scoredNights: 0, insufficientNights: 1, averages: { score: null } });
    const times = await app.call(reportCalls.monthReportTimes, { userId: w.ids.ada }, { token: w.aHome.token });
    expect(times.data).toEqual(['2026-03']);
    const badMonth = await app.call(
      reportCalls.monthReport,
      { userId: w.ids.ada, month: '2026-3' },
      { token: w.aHome.token },
    );
    expect(badMonth.msgKey).toBe('report.monthFormat');
    const period = await app.call(reportCalls.timePeriod, { userId: w.ids.dora }, { token: w.aHome.token });
    expect(period.data).toEqual({
      firstNight: null,
      lastNight: null,
      sleepTime: '23:00',
      wakeTime: '08:00',
      timeZone: ZONE,
      // The next night ends at 08:10 local on 3 March; the scheduler looks a minute later.
      nextReportAt: '2026-03-03T07:11:00.000Z',
    });
  });

  it('makes a night again on demand from what was stored since, and refuses a night not yet over', async () => {
    const bedId = (await rowsOf(w.ids.bert))[0]?.bedId ?? 0;
    expect(bedId).toBeGreaterThan(0);
    // The rest of Bert's night arrives late (a gateway back online): he was in bed after all.
    await storeNight(app, {
      deviceId: w.devices.bert,
      providerId: w.aHome.id,
      bedId,
      residentId: w.ids.bert,
      from: new Date(WINDOW_START.getTime() + 30 * MINUTE),
      minutes: 700,
      inBedFrom: 90,
      inBedTo: 670,
    });
    const res = await app.call(
      reportCalls.recomputeDailyReport,
      { userId: w.ids.bert, date: '2026-03-02' },
      { token: w.aHome.token },
    );
    expect(res.status, res.msg).toBe(200);
    expect(res.data?.figures?.insufficient).toBeNull();
    expect(res.data?.figures?.score).toEqual(expect.any(Number));
    const early = await app.call(
      reportCalls.recomputeDailyReport,
      { userId: w.ids.bert, date: '2026-03-03' },
      { token: w.aHome.token },
    );
    expect(early.msgKey).toBe('report.notEnded');
  });

  it('catches up the nights an outage left without a report, each saying no data was sent', async () => {
    // Three days later, the monitors silent since: Ada, Bert and Fay had reports, so each of
    // their nights of 3, 4 and 5 March gets one; Dora still has none.
    clock.set(new Date('2026-03-05T06:11:00Z'));
    w.aHome.token = await app.login(w.aHome.userName, w.aHome.password);
    expect(await scheduler().tick()).toMatchObject({ due: 9, made: 9, failed: 0 });
    const nights = (await rowsOf(w.ids.ada)).map((r) => r.night).sort();
    expect(nights).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    expect((await rowsOf(w.ids.dora)).length).toBe(0);
    const silent = await app.call(
      reportCalls.dailyReport,
      { userId: w.ids.ada, date: '2026-03-04' },
      { token: w.aHome.token },
    );
    expect(silent.data?.figures).toMatchObject({ insufficient: 'noData', coverage: 0, score: null, riskGrade: null });
  });

  it('stores a failed report, retries it later, and gives each report one producer across instances', async () => {
    clock.set(new Date('2026-03-06T06:11:00Z'));
    const failing = new ReportProducer(app.database.db, clock, {
      analyseStored: () => Promise.reject(new Error('worker lost')),
    });
    const broken = new ReportScheduler(app.database.db, clock, ZONE, failing, { retryAfterMs: 15 * MINUTE });
    expect(await broken.tick()).toMatchObject({ due: 3, failed: 3 });
    const [failed] = (await rowsOf(w.ids.ada)).filter((r) => r.night === '2026-03-06');
    expect(failed).toMatchObject({ state: 'failed', error: 'worker lost' });
    expect((await scheduler().tick()).due).toBe(0);
    clock.advance(16 * MINUTE);
    // Two instances look at once: each report is made by one of them.
    const other = new ReportScheduler(app.database.db, clock, ZONE, app.services.reports.producer);
    const [a, b] = await Promise.all([scheduler().tick(), other.tick()]);
    expect(a.made + b.made).toBe(3);
    expect(a.failed + b.failed).toBe(0);
    const ready = await app.database.db
      .select()
      .from(sleepReports)
      .where(and(eq(sleepReports.night, '2026-03-06'), eq(sleepReports.state, 'ready')));
    expect(ready).toHaveLength(3);
  });
});
