import type {
  DailyReport,
  DailyReportData,
  DailyReportRow,
  EndpointResult,
  MonthReport,
  NightFigures,
  NightSummary,
  ReportMinute,
  ReportResident,
  ReportUser,
  timePeriod,
} from '@vigil/contract/browser';

/**
 * Fixtures of the sleep-report screens' tests: one realistic night of a resident in Shanghai
 * (the platform zone), every figure filled, and the same night when its data cannot be scored.
 */

export const ZONE = 'Asia/Shanghai';
export const NIGHT = '2026-03-09';
/** The analysed window: 2026-03-08 19:00 to 2026-03-09 07:10 in Shanghai. */
export const WINDOW_START = Date.UTC(2026, 2, 8, 11, 0) / 1000;
export const WINDOW_END = WINDOW_START + (12 * 60 + 10) * 60;
const at = (clock: string) => {
  const [h = 0, m = 0] = clock.split(':').map(Number);
  // Clock times of the night in Shanghai (UTC+8): evening times on the 8th, morning on the 9th.
  const dayOffset = h >= 12 ? 0 : 24;
  return Date.UTC(2026, 2, 8, h - 8 + dayOffset, m) / 1000;
};

export const RESIDENT: ReportResident = {
  userId: 5,
  userName: 'Li Wei',
  gender: '1',
  age: 86,
  bunk: '1',
  room: '203',
  floorArea: 'Building A / Floor 2',
  providerName: 'Sunrise Care',
};

export const FIGURES: NightFigures = {
  windowStart: WINDOW_START,
  windowEnd: WINDOW_END,
  coverage: 0.93,
  signalCoverage: 0.88,
  insufficient: null,
  bedTime: at('21:30'),
  getUpTime: at('06:35'),
  sleepOnset: at('21:48'),
  wakeTime: at('06:20'),
  timeInBed: 32_700,
  totalSleep: 27_120,
  latency: 1_080,
  wakeAfterOnset: 2_100,
  efficiency: 0.83,
  stages: { wake: 2_100, rem: 5_400, light: 16_320, deep: 5_400 },
  deepShare: 0.2,
  continuity: 0.78,
  awakenings: 3,
  movementPerHour: 6.4,
  ahi: 7.2,
  apneaEvents: 54,
  leaveBedCount: 2,
  leaveBedSeconds: 540,
  hrv: { rmssd: 28.4, sdnn: 41.2, intervals: 24_000 },
  heart: { min: 51, avg: 58.3, max: 84 },
  breath: { min: 12, avg: 14.6, max: 19 },
  af: { burden: 0.06, longestMinutes: 12, risk: 'possible' },
  score: 78,
  scoreParts: { duration: 24, efficiency: 17, depth: 16, continuity: 11, latency: 10 },
  riskGrade: 'medium',
  riskReasons: ['afPossible'],
};

/** The same window when the data could not support a score: every figure null, nothing invented. */
export const INSUFFICIENT: NightFigures = {
  ...FIGURES,
  coverage: 0.41,
  signalCoverage: 0.12,
  insufficient: 'littleSignal',
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

export const report = (over: Partial<DailyReport> = {}): DailyReport => ({
  resident: RESIDENT,
  night: NIGHT,
  state: 'ready',
  computeTime: '2026-03-08T23:14:00.000Z',
  figures: FIGURES,
  ...over,
});

/** A small deterministic generator, so the fixture night looks alike in every run. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

/**
 * A night's curves: unknown until bed time, then sleep cycles of light, deep and REM with short
 * wakes, heart and breathing per minute with a few gaps, two times out of bed, apnea events.
 */
export const reportData = (over: Partial<DailyReportData> = {}): DailyReportData => {
  const next = random(7);
  const epochs = (WINDOW_END - WINDOW_START) / 30;
  const bed = (at('21:30') - WINDOW_START) / 30;
  const onset = (at('21:48') - WINDOW_START) / 30;
  const wake = (at('06:20') - WINDOW_START) / 30;
  const up = (at('06:35') - WINDOW_START) / 30;
  const cycle = [2, 2, 2, 3, 3, 3, 3, 2, 2, 1, 1, 2];
  const hypnogram = Array.from({ length: epochs }, (_, i) => {
    if (i < bed || i >= up) return 255;
    if (i < onset || i >= wake) return 0;
    if (i > onset + 700 && i < onset + 712) return 255;
    if (next() < 0.015) return 0;
    return cycle[Math.floor((i - onset) / 16) % cycle.length] ?? 2;
  });
  const minutes: ReportMinute[] = [];
  for (let ts = at('21:30'); ts < at('06:35'); ts += 60) {
    const hour = (ts - at('21:30')) / 3600;
    if (hour > 3 && hour < 3.1) continue;
    const out = (ts >= at('01:12') && ts < at('01:16')) || (ts >= at('04:05') && ts < at('04:10'));
    minutes.push({
      ts,
      heartRate:
        out || next() < 0.02 ? null : Math.round((62 - hour * 1.2 + Math.sin(hour * 2) * 2 + next() * 3) * 10) / 10,
      breathRate: out ? null : Math.round((15.5 + Math.sin(hour * 1.3) + next() * 0.8) * 10) / 10,
      move: out ? 0 : next() < 0.1 ? Math.round(next() * 30) : 0,
      inBed: !out,
    });
  }
  const apneaEvents = Array.from({ length: 12 }, (_, i) => {
    const start = at('22:40') + i * 1_700 + Math.round(next() * 600);
    return { start, end: start + 20 + Math.round(next() * 25) };
  });
  return {
    night: NIGHT,
    windowStart: WINDOW_START,
    windowEnd: WINDOW_END,
    epochSeconds: 30,
    hypnogram,
    minutes,
    apneaEvents,
    leaveBed: [
      { start: at('01:12'), end: at('01:16') },
      { start: at('04:05'), end: at('04:10') },
    ],
    limits: { heartMin: 50, heartMax: 100, breathMin: 10, breathMax: 25 },
    ...over,
  };
};

export const period = (over: Partial<EndpointResult<typeof timePeriod>> = {}): EndpointResult<typeof timePeriod> => ({
  firstNight: '2026-02-01',
  lastNight: NIGHT,
  sleepTime: '21:00',
  wakeTime: '07:00',
  timeZone: ZONE,
  // 2026-03-10 07:15 in Shanghai.
  nextReportAt: '2026-03-09T23:15:00.000Z',
  ...over,
});

export const summary = (night: string, over: Partial<NightSummary> = {}): NightSummary => ({
  night,
  state: 'ready',
  insufficient: null,
  coverage: 0.93,
  score: 78,
  totalSleep: 27_120,
  efficiency: 0.83,
  deepShare: 0.2,
  awakenings: 3,
  movementPerHour: 6.4,
  ahi: 7.2,
  leaveBedCount: 2,
  heartAvg: 58.3,
  breathAvg: 14.6,
  rmssd: 28.4,
  afRisk: 'possible',
  riskGrade: 'medium',
  ...over,
});

/** A night that could not be scored, as lists show it. */
export const unscored = (night: string, reason: NonNullable<NightSummary['insufficient']>): NightSummary =>
  summary(night, {
    insufficient: reason,
    coverage: reason === 'noData' ? 0 : 0.41,
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

export const row = (night: NightSummary, resident: ReportResident = RESIDENT): DailyReportRow => ({
  ...night,
  userId: resident.userId,
  userName: resident.userName,
  bunk: resident.bunk,
  room: resident.room,
});

export const reportUser = (over: Partial<ReportUser> = {}): ReportUser => ({
  userId: RESIDENT.userId,
  userName: RESIDENT.userName,
  gender: RESIDENT.gender,
  age: RESIDENT.age,
  bunk: RESIDENT.bunk,
  room: RESIDENT.room,
  floorArea: RESIDENT.floorArea,
  deviceId: 'SLP-1001',
  latest: summary(NIGHT),
  reports: 37,
  ...over,
});

/** March 2026 of the resident: scored nights with a trend and a night without data. */
export const month = (over: Partial<MonthReport> = {}): MonthReport => {
  const next = random(11);
  const nights: NightSummary[] = Array.from({ length: 9 }, (_, i) => {
    const night = `2026-03-0${i + 1}`;
    if (i === 3) return unscored(night, 'noData');
    const score = Math.round(70 + next() * 20);
    return summary(night, {
      score,
      totalSleep: Math.round(6.5 * 3600 + next() * 5400),
      ahi: Math.round((4 + next() * 14) * 10) / 10,
      heartAvg: Math.round(56 + next() * 6),
      breathAvg: Math.round(14 + next() * 3),
      riskGrade: score < 75 ? 'medium' : 'low',
    });
  });
  return {
    resident: RESIDENT,
    month: '2026-03',
    nights,
    scoredNights: 8,
    insufficientNights: 1,
    averages: {
      score: 79.4,
      totalSleep: 26_580,
      efficiency: 0.84,
      deepShare: 0.19,
      awakenings: 2.9,
      movementPerHour: 6.1,
      ahi: 9.6,
      leaveBedCount: 1.8,
      heartAvg: 58.7,
      breathAvg: 15.2,
      rmssd: 27.9,
    },
    riskNights: { low: 5, medium: 3, high: 0 },
    riskReasons: [
      { reason: 'afPossible', nights: 3 },
      { reason: 'poorSleep', nights: 1 },
    ],
    ...over,
  };
};
