import type { RiskReason, SleepReport } from '@vigil/sleep';
import { describe, expect, it } from 'vitest';
import { monthReportOf } from './month-summary.ts';
import { dataOf, figuresOf } from './stored-report.ts';

const resident = {
  userId: 1,
  userName: 'Zdeněk Šťastný',
  gender: '0',
  age: 81,
  bunk: '1',
  room: '101',
  floorArea: 'A / F1',
  providerName: 'Home',
};

/** A scored night: only the figures the month reads matter here. */
const scored = (score: number, ahi: number, grade: 'low' | 'medium' | 'high', reasons: RiskReason[]) =>
  ({
    window: { start: 0, end: 3600 },
    coverage: 0.95,
    signalCoverage: 0.9,
    insufficient: null,
    hypnogram: [],
    totalSleep: 7 * 3600,
    efficiency: 0.9,
    deepShare: 0.2,
    awakenings: 2,
    movementPerHour: 5,
    apnea: { ahi, events: [] },
    leaveBed: { count: 1, seconds: 300, episodes: [] },
    heart: { min: 50, avg: 60, max: 80 },
    breath: { min: 12, avg: 14, max: 18 },
    hrv: { rmssd: 30, sdnn: 50, intervals: 20_000 },
    af: { burden: 0, longestMinutes: 0, risk: 'low' },
    score: { total: score, parts: { duration: 30, efficiency: 20, depth: 20, continuity: 20, latency: 10 } },
    risk: { grade, reasons },
  }) as unknown as SleepReport;

const insufficient = {
  window: { start: 0, end: 3600 },
  coverage: 0,
  signalCoverage: 0,
  insufficient: 'noData',
  hypnogram: [],
  apnea: null,
  leaveBed: null,
  heart: null,
  breath: null,
  hrv: null,
  af: null,
  score: null,
  risk: null,
  totalSleep: null,
} as unknown as SleepReport;

describe('the month of a resident', () => {
  it('averages the scored nights only, and counts risk grades and reasons', () => {
    const month = monthReportOf(resident, '2026-03', [
      { night: '2026-03-03', state: 'ready', report: scored(80, 20, 'medium', ['moderateApnea']) },
      { night: '2026-03-01', state: 'ready', report: scored(60, 35, 'high', ['severeApnea', 'poorSleep']) },
      { night: '2026-03-02', state: 'ready', report: insufficient },
      { night: '2026-03-04', state: 'failed', report: null },
    ]);
    expect(month.nights.map((n) => n.night)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    expect(month.scoredNights).toBe(2);
    expect(month.insufficientNights).toBe(1);
    expect(month.averages).toMatchObject({ score: 70, ahi: 27.5, heartAvg: 60, totalSleep: 7 * 3600 });
    expect(month.riskNights).toEqual({ low: 0, medium: 1, high: 1 });
    expect(month.riskReasons).toEqual([
      { reason: 'moderateApnea', nights: 1 },
      { reason: 'poorSleep', nights: 1 },
      { reason: 'severeApnea', nights: 1 },
    ]);
    expect(month.nights[1]).toMatchObject({ insufficient: 'noData', score: null, totalSleep: null, ahi: null });
    expect(month.nights[3]).toMatchObject({ state: 'failed', score: null });
  });

  it('has no averages for a month without a scored night, never zeros', () => {
    const month = monthReportOf(resident, '2026-03', [{ night: '2026-03-02', state: 'ready', report: insufficient }]);
    expect(Object.values(month.averages).every((v) => v === null)).toBe(true);
  });
});

describe('a stored report on the wire', () => {
  it('keeps what the data cannot support null, and lists events and minutes with data', () => {
    const figures = figuresOf(insufficient);
    expect(figures).toMatchObject({
      insufficient: 'noData',
      score: null,
      ahi: null,
      apneaEvents: null,
      riskGrade: null,
    });
    expect(figures.riskReasons).toEqual([]);
    const data = dataOf('2026-03-02', {
      report: { ...scored(80, 5, 'low', []), apnea: { ahi: 5, events: [{ start: 100, end: 130 }] } },
      curves: { start: 0, hr: [null, 61.5, null], breath: [null, 14, null], move: [null, 3, 0], inBed: [null, 1, 0] },
    });
    expect(data.apneaEvents).toEqual([{ start: 100, end: 130 }]);
    expect(data.minutes).toEqual([
      { ts: 60, heartRate: 61.5, breathRate: 14, move: 3, inBed: true },
      { ts: 120, heartRate: null, breathRate: null, move: 0, inBed: false },
    ]);
  });
});
