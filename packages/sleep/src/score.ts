/**
 * The sleep score (0–100) and the night's risk grade. Like Withings' Sleep Score, the total is
 * a sum of named parts a caregiver can read one by one; the targets are those for older adults
 * (7–8 h of sleep, National Sleep Foundation 2015; efficiency ≥ 85%, latency ≤ 30 min, Ohayon
 * et al. 2017 sleep-quality consensus).
 */
import type { AfRisk, RiskGrade, RiskReason, ScoreParts } from './report.ts';

const HOUR = 3600;
const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

export interface ScoreInput {
  totalSleep: number;
  efficiency: number;
  deepShare: number;
  remShare: number;
  continuity: number;
  wakeAfterOnset: number;
  latency: number;
}

/** Points per part: duration 30, efficiency 20, depth 20, continuity 20, latency 10. */
export function sleepScore(night: ScoreInput): { total: number; parts: ScoreParts } {
  const hours = night.totalSleep / HOUR;
  const duration = 30 * (hours < 7 ? clamp01((hours - 3) / 4) : hours <= 9 ? 1 : Math.max(0.5, 1 - (hours - 9) / 4));
  const efficiency = 20 * clamp01((night.efficiency - 0.5) / (0.85 - 0.5));
  const depth = 10 * clamp01(night.deepShare / 0.15) + 10 * clamp01(night.remShare / 0.2);
  const continuity = 10 * clamp01(night.continuity) + 10 * clamp01(1 - night.wakeAfterOnset / HOUR);
  const latency = 10 * clamp01(1 - (night.latency - 20 * 60) / (40 * 60));
  const parts = {
    duration: Math.round(duration),
    efficiency: Math.round(efficiency),
    depth: Math.round(depth),
    continuity: Math.round(continuity),
    latency: Math.round(latency),
  };
  return { total: parts.duration + parts.efficiency + parts.depth + parts.continuity + parts.latency, parts };
}

export interface RiskInput {
  ahi: number | null;
  afRisk: AfRisk | null;
  heartMin: number | null;
  heartMax: number | null;
  score: number | null;
}

/** High: severe apnea (AHI ≥ 30), likely AF, or a heart rate below 40 / above 120 sustained for a
 * minute. Medium: moderate apnea (≥ 15), possible AF, or a score under 60. */
export function riskGrade(night: RiskInput): { grade: RiskGrade; reasons: RiskReason[] } {
  const high: RiskReason[] = [];
  const medium: RiskReason[] = [];
  if (night.ahi !== null && night.ahi >= 30) high.push('severeApnea');
  else if (night.ahi !== null && night.ahi >= 15) medium.push('moderateApnea');
  if (night.afRisk === 'likely') high.push('afLikely');
  else if (night.afRisk === 'possible') medium.push('afPossible');
  if (night.heartMin !== null && night.heartMin < 40) high.push('lowHeartRate');
  if (night.heartMax !== null && night.heartMax > 120) high.push('highHeartRate');
  if (night.score !== null && night.score < 60) medium.push('poorSleep');
  const grade: RiskGrade = high.length > 0 ? 'high' : medium.length > 0 ? 'medium' : 'low';
  return { grade, reasons: [...high, ...medium] };
}
