/**
 * Realistic report inputs for the PDF tests and bench: a whole night (about 1,200 hypnogram
 * epochs and 600 minutes of curves, sleep cycles, a signal gap, apnea events and two times out
 * of bed) and a month of 30 nights with 3 that could not be scored. Deterministic: a seeded
 * generator, so a failing test shows the same pages every run.
 */
import type {
  DailyReport,
  DailyReportData,
  MonthReport,
  NightFigures,
  NightSummary,
  ReportMinute,
  ReportResident,
} from '@vigil/contract';

type InsufficientReason = NonNullable<NightFigures['insufficient']>;
type RiskReason = NightFigures['riskReasons'][number];

/** mulberry32: a small seeded generator, enough for plausible noise. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Unix seconds of a local wall-clock time ("2026-03-01", "21:00") in an IANA zone. */
export function localTime(day: string, clock: string, timeZone: string): number {
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  const [hh = 0, mm = 0] = clock.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm) / 1000;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const offsetAt = (t: number): number => {
    const p = Object.fromEntries(parts.formatToParts(t * 1000).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) / 1000 - t;
  };
  const first = wall - offsetAt(wall);
  return wall - offsetAt(first);
}

const previousDay = (day: string): string =>
  new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

export function residentFixture(userName: string, overrides: Partial<ReportResident> = {}): ReportResident {
  return {
    userId: 1042,
    userName,
    gender: '1',
    age: 84,
    bunk: '2',
    room: '203',
    floorArea: 'North wing / 2F',
    providerName: 'Sunny Hill Care Home',
    ...overrides,
  };
}

export interface NightOptions {
  night?: string;
  timeZone?: string;
  seed?: number;
  resident?: ReportResident;
  /** Apnea events drawn on the night (the AHI follows from them). */
  apneaEventCount?: number;
  riskGrade?: NightFigures['riskGrade'];
  riskReasons?: RiskReason[];
  /** Overrides the measured coverage (e.g. 0.55 for a scored night with a "read with care" note). */
  coverage?: number;
}

const EPOCH = 30;

/** A full night's report and curves: in bed 22:10–06:35, asleep 22:32–06:15 local time. */
export function nightFixture(options: NightOptions = {}): { report: DailyReport; data: DailyReportData } {
  const night = options.night ?? '2026-03-02';
  const timeZone = options.timeZone ?? 'Europe/Prague';
  const rand = random(options.seed ?? 7);
  const at = (day: string, clock: string): number => localTime(day, clock, timeZone);
  const eve = previousDay(night);
  const windowStart = at(eve, '21:00');
  const windowEnd = at(night, '07:10');
  const bedTime = at(eve, '22:10');
  const sleepOnset = at(eve, '22:32');
  const wakeTime = at(night, '06:15');
  const getUpTime = at(night, '06:35');
  const leaveBed = [
    { start: at(night, '02:41'), end: at(night, '02:48') },
    { start: at(night, '04:56'), end: at(night, '04:59') },
  ];
  const signalGap = { start: at(night, '01:30'), end: at(night, '01:45') };
  const inSpan = (t: number, span: { start: number; end: number }): boolean => t >= span.start && t < span.end;
  const outOfBed = (t: number): boolean => t < bedTime || t >= getUpTime || leaveBed.some((s) => inSpan(t, s));

  const epochs = Math.round((windowEnd - windowStart) / EPOCH);
  const hypnogram: number[] = [];
  let arousal = 0;
  for (let i = 0; i < epochs; i++) {
    const t = windowStart + i * EPOCH;
    if (inSpan(t, signalGap)) hypnogram.push(255);
    else if (outOfBed(t) || t < sleepOnset || t >= wakeTime) hypnogram.push(0);
    else if (arousal > 0) {
      arousal--;
      hypnogram.push(0);
    } else if (rand() < 0.006) {
      arousal = 1 + Math.floor(rand() * 5);
      hypnogram.push(0);
    } else {
      // 95-minute cycles: deep early in the night, REM longer towards morning.
      const minutes = (t - sleepOnset) / 60;
      const cycle = Math.floor(minutes / 95);
      const phase = minutes % 95;
      const deep = Math.max(0, 38 - 10 * cycle);
      const rem = 8 + 6 * cycle;
      hypnogram.push(phase >= 18 && phase < 18 + deep ? 3 : phase >= 95 - rem ? 1 : 2);
    }
  }

  const apneaEvents: { start: number; end: number }[] = [];
  const eventCount = options.apneaEventCount ?? 9;
  for (let k = 0; k < eventCount; k++) {
    let start = sleepOnset + 1200 + Math.floor(rand() * (wakeTime - sleepOnset - 2400));
    while (
      hypnogram[Math.floor((start - windowStart) / EPOCH)] === 0 ||
      hypnogram[Math.floor((start - windowStart) / EPOCH)] === 255
    )
      start += 90;
    apneaEvents.push({ start, end: start + 12 + Math.floor(rand() * 28) });
  }
  apneaEvents.sort((a, b) => a.start - b.start);

  const minutes: ReportMinute[] = [];
  for (let ts = windowStart; ts < windowEnd; ts += 60) {
    if (inSpan(ts, signalGap)) continue;
    const stage = hypnogram[Math.floor((ts - windowStart) / EPOCH)] ?? 0;
    if (outOfBed(ts)) {
      minutes.push({ ts, heartRate: null, breathRate: null, move: 0, inBed: false });
      continue;
    }
    const hours = (ts - windowStart) / 3600;
    const stageShift = stage === 3 ? -5 : stage === 1 ? 3 : stage === 0 ? 6 : 0;
    const lost = rand() < 0.02;
    const apnea = apneaEvents.some((e) => ts >= e.start - 60 && ts < e.end);
    minutes.push({
      ts,
      heartRate: lost
        ? null
        : Math.round((66 - hours * 0.9 + stageShift + (apnea ? 7 : 0) + (rand() - 0.5) * 4) * 10) / 10,
      breathRate: lost
        ? null
        : Math.round((15.2 + (stage === 3 ? -1.4 : 0) + (stage === 0 ? 1.2 : 0) + (rand() - 0.5) * 1.6) * 10) / 10,
      move: stage === 0 ? Math.floor(rand() * 24) : rand() < 0.08 ? 1 + Math.floor(rand() * 9) : 0,
      inBed: true,
    });
  }

  // The figures as the analysis derives them from the same night.
  const onsetEpoch = Math.floor((sleepOnset - windowStart) / EPOCH);
  const wakeEpoch = Math.floor((wakeTime - windowStart) / EPOCH);
  const slept = hypnogram.slice(onsetEpoch, wakeEpoch);
  const count = (code: number): number => slept.filter((c) => c === code).length * EPOCH;
  const stages = { wake: count(0) + count(255), rem: count(1), light: count(2), deep: count(3) };
  const totalSleep = stages.rem + stages.light + stages.deep;
  const timeInBed = getUpTime - bedTime;
  let awakenings = 0;
  let longBouts = 0;
  for (let i = 0; i < slept.length;) {
    const sleeping = slept[i] !== 0 && slept[i] !== 255;
    let j = i + 1;
    while (j < slept.length && (slept[j] !== 0 && slept[j] !== 255) === sleeping) j++;
    if (!sleeping && j - i >= 2) awakenings++;
    if (sleeping && (j - i) * EPOCH >= 1200) longBouts += (j - i) * EPOCH;
    i = j;
  }
  const inBed = minutes.filter((m) => m.inBed);
  const heartValues = inBed.flatMap((m) => (m.heartRate === null ? [] : [m.heartRate]));
  const breathValues = inBed.flatMap((m) => (m.breathRate === null ? [] : [m.breathRate]));
  const range = (values: number[]) => ({
    min: Math.min(...values),
    avg: Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10,
    max: Math.max(...values),
  });
  const sleepHours = totalSleep / 3600;
  const efficiency = totalSleep / timeInBed;
  const latency = sleepOnset - bedTime;
  const continuity = longBouts / totalSleep;
  const parts = {
    duration: Math.round(sleepHours >= 7 ? 30 : Math.max(0, (30 * (sleepHours - 3)) / 4)),
    efficiency: Math.round(efficiency >= 0.85 ? 20 : Math.max(0, (20 * (efficiency - 0.5)) / 0.35)),
    depth: Math.round(
      10 * Math.min(1, stages.deep / totalSleep / 0.15) + 10 * Math.min(1, stages.rem / totalSleep / 0.2),
    ),
    continuity: Math.round(10 * continuity + 10 * Math.max(0, 1 - stages.wake / 3600)),
    latency: Math.round(latency <= 1200 ? 10 : Math.max(0, (10 * (3600 - latency)) / 2400)),
  };
  const score = parts.duration + parts.efficiency + parts.depth + parts.continuity + parts.latency;
  const windowMinutes = (windowEnd - windowStart) / 60;

  const figures: NightFigures = {
    windowStart,
    windowEnd,
    coverage: options.coverage ?? minutes.length / windowMinutes,
    signalCoverage: heartValues.length / inBed.length,
    insufficient: null,
    bedTime,
    getUpTime,
    sleepOnset,
    wakeTime,
    timeInBed,
    totalSleep,
    latency,
    wakeAfterOnset: stages.wake,
    efficiency,
    stages,
    deepShare: stages.deep / totalSleep,
    continuity,
    awakenings,
    movementPerHour: Math.round((inBed.filter((m) => m.move >= 5).length / (timeInBed / 3600)) * 10) / 10,
    ahi: Math.round((apneaEvents.length / sleepHours) * 10) / 10,
    apneaEvents: apneaEvents.length,
    leaveBedCount: leaveBed.length,
    leaveBedSeconds: leaveBed.reduce((sum, s) => sum + s.end - s.start, 0),
    hrv: { rmssd: 27.6, sdnn: 41.3, intervals: 26_418 },
    heart: range(heartValues),
    breath: range(breathValues),
    af: { burden: 0.064, longestMinutes: 12, risk: 'possible' },
    score,
    scoreParts: parts,
    riskGrade: options.riskGrade ?? 'medium',
    riskReasons: options.riskReasons ?? ['afPossible'],
  };
  return {
    report: {
      resident: options.resident ?? residentFixture('Margaret Ellis'),
      night,
      state: 'ready',
      computeTime: new Date((wakeTime + 15 * 60) * 1000).toISOString(),
      figures,
    },
    data: {
      night,
      windowStart,
      windowEnd,
      epochSeconds: EPOCH,
      hypnogram,
      minutes,
      apneaEvents,
      leaveBed,
      limits: null,
    },
  };
}

/** A night the data could not support: a notice instead of a score, every other figure null. */
export function insufficientNightFixture(
  reason: InsufficientReason,
  options: NightOptions = {},
): { report: DailyReport; data: DailyReportData } {
  const full = nightFixture(options);
  const figures = full.report.figures as NightFigures;
  const coverage = reason === 'noData' ? 0 : reason === 'notInBed' ? 0.82 : 0.34;
  const signalCoverage = reason === 'noData' ? 0 : reason === 'notInBed' ? 0 : 0.21;
  const nulls: NightFigures = {
    ...figures,
    coverage,
    signalCoverage,
    insufficient: reason,
    bedTime: null,
    getUpTime: null,
    sleepOnset: null,
    wakeTime: null,
    timeInBed: null,
    totalSleep: null,
    latency: null,
    wakeAfterOnset: null,
    efficiency: null,
    stages: null,
    deepShare: null,
    continuity: null,
    awakenings: null,
    movementPerHour: null,
    ahi: null,
    apneaEvents: null,
    leaveBedCount: null,
    leaveBedSeconds: null,
    hrv: null,
    heart: null,
    breath: null,
    af: null,
    score: null,
    scoreParts: null,
    riskGrade: null,
    riskReasons: [],
  };
  // What the monitor did send: nothing, an empty bed, or a few scattered minutes.
  const minutes =
    reason === 'noData'
      ? []
      : reason === 'notInBed'
        ? full.data.minutes.map((m) => ({ ...m, heartRate: null, breathRate: null, move: 0, inBed: false }))
        : full.data.minutes
            .filter((_, i) => i % 3 === 0)
            .map((m) => (m.inBed && m.ts % 120 === 0 ? { ...m, heartRate: null } : m));
  const hypnogram = full.data.hypnogram.map((code, i) =>
    reason === 'littleSignal' && i % 6 === 0 ? code : reason === 'notInBed' ? 0 : 255,
  );
  return {
    report: { ...full.report, figures: nulls },
    data: { ...full.data, hypnogram, minutes, apneaEvents: [], leaveBed: [] },
  };
}

const INSUFFICIENT_DAYS: Record<number, InsufficientReason> = { 5: 'noData', 12: 'notInBed', 23: 'littleSignal' };
/** A night without any report (the monitor was away for repair): the month lists only nights with one. */
const MISSING_DAY = 17;

/**
 * A month of nights: 30 with a report, 3 of them insufficient, with a few apnea and AF nights.
 * `withoutNights`: the same month with no night that has a report (no averages, no risk).
 */
export function monthFixture(
  options: { month?: string; resident?: ReportResident; seed?: number; withoutNights?: boolean } = {},
): MonthReport {
  const month = options.month ?? '2026-03';
  const rand = random(options.seed ?? 11);
  const [year = 2026, monthNumber = 3] = month.split('-').map(Number);
  const days = options.withoutNights ? 0 : new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const nights: NightSummary[] = [];
  const reasonCounts = new Map<RiskReason, number>();
  const riskNights = { low: 0, medium: 0, high: 0 };
  for (let day = 1; day <= days; day++) {
    if (day === MISSING_DAY) continue;
    const night = `${month}-${String(day).padStart(2, '0')}`;
    const insufficient = INSUFFICIENT_DAYS[day];
    if (insufficient) {
      nights.push({
        night,
        state: 'ready',
        insufficient,
        coverage: insufficient === 'noData' ? 0 : insufficient === 'notInBed' ? 0.8 : 0.34,
        score: null,
        totalSleep: null,
        efficiency: null,
        deepShare: null,
        awakenings: null,
        movementPerHour: null,
        ahi: null,
        leaveBedCount: null,
        heartAvg: null,
        breathAvg: null,
        rmssd: null,
        afRisk: null,
        riskGrade: null,
      });
      continue;
    }
    const totalSleep = Math.round((5.6 + rand() * 2.6) * 3600);
    const ahi =
      Math.round((day % 9 === 0 ? 31 + rand() * 6 : day % 4 === 0 ? 15 + rand() * 9 : 2 + rand() * 9) * 10) / 10;
    const afRisk = day === 8 || day === 21 ? 'possible' : 'low';
    const score = Math.round(52 + rand() * 36 - (ahi > 15 ? 6 : 0));
    const reasons: RiskReason[] = [];
    if (ahi >= 30) reasons.push('severeApnea');
    else if (ahi >= 15) reasons.push('moderateApnea');
    if (afRisk === 'possible') reasons.push('afPossible');
    if (score < 60) reasons.push('poorSleep');
    const riskGrade = reasons.includes('severeApnea') ? 'high' : reasons.length ? 'medium' : 'low';
    riskNights[riskGrade]++;
    for (const reason of reasons) reasonCounts.set(reason, (reasonCounts.get(reason) ?? 0) + 1);
    nights.push({
      night,
      state: 'ready',
      insufficient: null,
      coverage: 0.86 + rand() * 0.13,
      score,
      totalSleep,
      efficiency: Math.round((0.74 + rand() * 0.2) * 1000) / 1000,
      deepShare: Math.round((0.1 + rand() * 0.12) * 1000) / 1000,
      awakenings: Math.floor(rand() * 6),
      movementPerHour: Math.round((3 + rand() * 9) * 10) / 10,
      ahi,
      leaveBedCount: Math.floor(rand() * 4),
      heartAvg: Math.round((57 + rand() * 14) * 10) / 10,
      breathAvg: Math.round((14 + rand() * 3.5) * 10) / 10,
      rmssd: Math.round((20 + rand() * 20) * 10) / 10,
      afRisk,
      riskGrade,
    });
  }
  const scored = nights.filter((n) => n.score !== null);
  const mean = (pick: (n: NightSummary) => number | null): number | null => {
    const values = scored.flatMap((n) => {
      const v = pick(n);
      return v === null ? [] : [v];
    });
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  };
  return {
    resident: options.resident ?? residentFixture('Margaret Ellis'),
    month,
    nights,
    scoredNights: scored.length,
    insufficientNights: nights.filter((n) => n.insufficient !== null).length,
    averages: {
      score: mean((n) => n.score),
      totalSleep: mean((n) => n.totalSleep),
      efficiency: mean((n) => n.efficiency),
      deepShare: mean((n) => n.deepShare),
      awakenings: mean((n) => n.awakenings),
      movementPerHour: mean((n) => n.movementPerHour),
      ahi: mean((n) => n.ahi),
      leaveBedCount: mean((n) => n.leaveBedCount),
      heartAvg: mean((n) => n.heartAvg),
      breathAvg: mean((n) => n.breathAvg),
      rmssd: mean((n) => n.rmssd),
    },
    riskNights,
    riskReasons: [...reasonCounts]
      .map(([reason, count]) => ({ reason, nights: count }))
      .sort((a, b) => b.nights - a.nights),
  };
}
