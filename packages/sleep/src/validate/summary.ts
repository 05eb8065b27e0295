/** Pools per-record scores into the figures `sleep:validate` prints and their targets. */
import { Confusion } from './agreement.ts';
import type { RecordScore } from './evaluate.ts';

export interface Summary {
  apneaMinuteAccuracy: number | null;
  apneaRecordAccuracy: number | null;
  ahiClassAgreement: number | null;
  stagingAccuracy4: number | null;
  stagingKappa4: number | null;
  afSensitivity: number | null;
  afSpecificity: number | null;
  records: number;
}

/** The targets (published figures beside them in docs/sleep-analysis.md). */
export const TARGETS = {
  apneaMinuteAccuracy: 0.85,
  apneaRecordAccuracy: 0.95,
  stagingKappa4: 0.49,
  afSensitivity: 0.95,
  afSpecificity: 0.95,
} as const;

const round = (value: number): number | null => (Number.isNaN(value) ? null : Math.round(value * 10_000) / 10_000);

export function summarise(scores: RecordScore[]): Summary {
  const apneaMinutes = new Confusion(2);
  const apneaRecords = new Confusion(2);
  const grades = new Confusion(4);
  const stages = new Confusion(4);
  const rhythm = new Confusion(2);
  for (const score of scores) {
    if (score.kind === 'apnea') {
      apneaMinutes.merge(score.minutes);
      if (score.recordTruth !== null) apneaRecords.add(score.recordTruth, score.recordPredicted);
      if (score.gradeTruth !== null) grades.add(score.gradeTruth, score.gradePredicted);
    } else if (score.kind === 'staging') stages.merge(score.epochs);
    else rhythm.merge(score.minutes);
  }
  return {
    apneaMinuteAccuracy: round(apneaMinutes.accuracy()),
    apneaRecordAccuracy: round(apneaRecords.accuracy()),
    ahiClassAgreement: round(grades.accuracy()),
    stagingAccuracy4: round(stages.accuracy()),
    stagingKappa4: round(stages.kappa()),
    afSensitivity: round(rhythm.sensitivity()),
    afSpecificity: round(rhythm.specificity()),
    records: scores.length,
  };
}
