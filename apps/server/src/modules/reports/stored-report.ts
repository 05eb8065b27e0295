/**
 * What a ready sleep report keeps (`sleep_report.report`) and how the calls present it. The
 * stored shape is the analysis as @vigil/sleep answers it plus the minute curves, so a report
 * can be presented again after the raw seconds are purged, and re-presented when the wire
 * changes without recomputing.
 */
import type { DailyReportData, NightFigures, NightSummary, ReportMinute } from '@vigil/contract';
import { HYPNOGRAM_EPOCH_SECONDS } from '@vigil/contract';
import type { MinuteCurves, SleepReport } from '@vigil/sleep';

/** Bumped when the analysis changes what it answers: older reports may then be recomputed. */
export const ANALYSIS_VERSION = 1;

export interface StoredReport {
  report: SleepReport;
  curves: MinuteCurves;
}

/** A stored report's JSON, checked for the two parts the presenters read. */
export const storedReportOf = (raw: unknown): StoredReport | null => {
  if (raw === null || typeof raw !== 'object') return null;
  const { report, curves } = raw as Partial<StoredReport>;
  if (!report || typeof report !== 'object' || !curves || !Array.isArray(curves.hr)) return null;
  return { report, curves };
};

/** A report row's stored analysis when the row is ready, else null. */
export const readyReportOf = (row: { state: string; report: unknown }): StoredReport | null =>
  row.state === 'ready' ? storedReportOf(row.report) : null;

export const figuresOf = (r: SleepReport): NightFigures => ({
  windowStart: r.window.start,
  windowEnd: r.window.end,
  coverage: r.coverage,
  signalCoverage: r.signalCoverage,
  insufficient: r.insufficient,
  bedTime: r.bedTime,
  getUpTime: r.getUpTime,
  sleepOnset: r.sleepOnset,
  wakeTime: r.wakeTime,
  timeInBed: r.timeInBed,
  totalSleep: r.totalSleep,
  latency: r.latency,
  wakeAfterOnset: r.wakeAfterOnset,
  efficiency: r.efficiency,
  stages: r.stages,
  deepShare: r.deepShare,
  continuity: r.continuity,
  awakenings: r.awakenings,
  movementPerHour: r.movementPerHour,
  ahi: r.apnea?.ahi ?? null,
  apneaEvents: r.apnea ? r.apnea.events.length : null,
  leaveBedCount: r.leaveBed?.count ?? null,
  leaveBedSeconds: r.leaveBed?.seconds ?? null,
  hrv: r.hrv,
  heart: r.heart,
  breath: r.breath,
  af: r.af,
  score: r.score?.total ?? null,
  scoreParts: r.score?.parts ?? null,
  riskGrade: r.risk?.grade ?? null,
  riskReasons: r.risk?.reasons ?? [],
});

/** The minutes of the window the monitor said anything in. */
const minutesOf = (curves: MinuteCurves): ReportMinute[] => {
  const out: ReportMinute[] = [];
  for (let m = 0; m < curves.hr.length; m++) {
    const heartRate = curves.hr[m] ?? null;
    const breathRate = curves.breath[m] ?? null;
    const move = curves.move[m] ?? null;
    const inBed = curves.inBed[m] ?? null;
    if (heartRate === null && breathRate === null && move === null && inBed === null) continue;
    out.push({ ts: curves.start + m * 60, heartRate, breathRate, move: move ?? 0, inBed: inBed === 1 });
  }
  return out;
};

export const dataOf = (night: string, stored: StoredReport): DailyReportData => ({
  night,
  windowStart: stored.report.window.start,
  windowEnd: stored.report.window.end,
  epochSeconds: HYPNOGRAM_EPOCH_SECONDS,
  hypnogram: stored.report.hypnogram,
  minutes: minutesOf(stored.curves),
  apneaEvents: stored.report.apnea?.events ?? [],
  leaveBed: stored.report.leaveBed?.episodes ?? [],
  // The bed's limits are the alarm engine's, not the night's: the service adds them.
  limits: null,
});

/** A night in a list: its state, and its main figures when ready. */
export const summaryOf = (night: string, state: NightSummary['state'], r: SleepReport | null): NightSummary => ({
  night,
  state,
  insufficient: r?.insufficient ?? null,
  coverage: r?.coverage ?? null,
  score: r?.score?.total ?? null,
  totalSleep: r?.totalSleep ?? null,
  efficiency: r?.efficiency ?? null,
  deepShare: r?.deepShare ?? null,
  awakenings: r?.awakenings ?? null,
  movementPerHour: r?.movementPerHour ?? null,
  ahi: r?.apnea?.ahi ?? null,
  leaveBedCount: r?.leaveBed?.count ?? null,
  heartAvg: r?.heart?.avg ?? null,
  breathAvg: r?.breath?.avg ?? null,
  rmssd: r?.hrv?.rmssd ?? null,
  afRisk: r?.af?.risk ?? null,
  riskGrade: r?.risk?.grade ?? null,
});
