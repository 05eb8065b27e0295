/** What one night's analysis answers. Times are Unix seconds; durations seconds; shares 0–1.
 * `null` means the night's data cannot support the figure, never zero. */
import type { StageCode } from './series.ts';

export type InsufficientReason = 'noData' | 'notInBed' | 'littleSignal';
export type AfRisk = 'low' | 'possible' | 'likely';
export type RiskGrade = 'low' | 'medium' | 'high';
export type RiskReason =
  'severeApnea' | 'moderateApnea' | 'afLikely' | 'afPossible' | 'lowHeartRate' | 'highHeartRate' | 'poorSleep';

export interface Range {
  min: number;
  avg: number;
  max: number;
}

export interface Span {
  start: number;
  end: number;
}

export interface ScoreParts {
  duration: number;
  efficiency: number;
  depth: number;
  continuity: number;
  latency: number;
}

export interface SleepReport {
  window: Span;
  /** Share of the window with any message from the device. */
  coverage: number;
  /** Share of the time in bed with a valid heart rate. */
  signalCoverage: number;
  /** Why the night cannot be scored; null when it can. */
  insufficient: InsufficientReason | null;
  /** First lying down for good (an in-bed stretch of 5 minutes or more). */
  bedTime: number | null;
  /** End of the last in-bed stretch of 5 minutes or more. */
  getUpTime: number | null;
  sleepOnset: number | null;
  wakeTime: number | null;
  /** One stage per 30 s from `window.start` (255 where unknown). */
  hypnogram: (StageCode | 255)[];
  timeInBed: number | null;
  totalSleep: number | null;
  latency: number | null;
  efficiency: number | null;
  stages: { wake: number; rem: number; light: number; deep: number } | null;
  deepShare: number | null;
  continuity: number | null;
  awakenings: number | null;
  wakeAfterOnset: number | null;
  movementPerHour: number | null;
  apnea: { ahi: number; events: Span[] } | null;
  leaveBed: { count: number; seconds: number; episodes: Span[] } | null;
  hrv: { rmssd: number; sdnn: number; intervals: number } | null;
  heart: Range | null;
  breath: Range | null;
  af: { burden: number; longestMinutes: number; risk: AfRisk } | null;
  score: { total: number; parts: ScoreParts } | null;
  risk: { grade: RiskGrade; reasons: RiskReason[] } | null;
}
