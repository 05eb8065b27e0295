/**
 * Scores the library against one record's expert labels. How each figure is counted is part of
 * what it means, so it is written here once and quoted in docs/sleep-analysis.md.
 */
import { detectAf } from '../af.ts';
import { detectApnea } from '../apnea.ts';
import { hrv } from '../hrv.ts';
import { EPOCH_SECONDS, Stage, UNKNOWN } from '../series.ts';
import { stageSleep } from '../staging.ts';
import { Confusion } from './agreement.ts';
import type { ApneaRecord, DatasetRecord, RhythmRecord, StagingRecord } from './datasets.ts';
import { minuteRhythms, STAGE_BY_LABEL } from './labels.ts';

/** Clinical AHI grades: normal < 5, mild 5–15, moderate 15–30, severe ≥ 30 events an hour. */
export const ahiGrade = (ahi: number): number => (ahi < 5 ? 0 : ahi < 15 ? 1 : ahi < 30 ? 2 : 3);

export interface ApneaScore {
  kind: 'apnea';
  minutes: Confusion;
  /** Challenge group A (apnea) or C (control); null for borderline B, not scored. */
  recordTruth: 0 | 1 | null;
  recordPredicted: 0 | 1;
  gradeTruth: number | null;
  gradePredicted: number;
  ahi: number | null;
  referenceAhi: number | null;
  ms: number;
}

export interface StagingScore {
  kind: 'staging';
  epochs: Confusion;
  ms: number;
}

export interface RhythmScore {
  kind: 'rhythm';
  minutes: Confusion;
  /** Scored minutes the detector could not judge. */
  unknown: number;
  burden: number | null;
  referenceBurden: number | null;
  ms: number;
}

/** Whole-record HRV beside the datasets' reference values (no target: a check of the definition). */
export interface HrvCheck {
  sdnn: number | null;
  rmssd: number | null;
  referenceSdnn: number | null;
  referenceRmssd: number | null;
}

export type RecordScore = (ApneaScore | StagingScore | RhythmScore) & { hrv: HrvCheck };

const numberOr = (text: string | undefined): number | null =>
  text === undefined || text === '' || !Number.isFinite(Number(text)) ? null : Number(text);

const timed = <T>(work: () => T): { value: T; ms: number } => {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
};

/** Minutes against the expert's A/N labels; an UNKNOWN minute counts as "normal". The record is
 * called apnea at an estimated AHI ≥ 5, against the Challenge group (A apnea, C control). */
function scoreApnea(record: ApneaRecord): ApneaScore {
  const { value: result, ms } = timed(() => detectApnea({ hr: record.hr, beats: record.beats }));
  const minutes = new Confusion(2);
  record.minutes.forEach((truth, i) => minutes.add(truth, result.minutes[i] === 1 ? 1 : 0));
  const group = record.reference['group'];
  const referenceAhi = numberOr(record.reference['AHI']);
  const ahi = result.ahi;
  return {
    kind: 'apnea',
    minutes,
    recordTruth: group === 'A' ? 1 : group === 'C' ? 0 : null,
    recordPredicted: ahi !== null && ahi >= 5 ? 1 : 0,
    gradeTruth: referenceAhi === null ? null : ahiGrade(referenceAhi),
    gradePredicted: ahiGrade(ahi ?? 0),
    ahi,
    referenceAhi,
    ms,
  };
}

/** 30-s epochs against R&K stages mapped to wake / REM / light (1+2) / deep (3+4); movement
 * time and unscored epochs are left out; an UNKNOWN epoch counts as wake. */
function scoreStaging(record: StagingRecord): StagingScore {
  const { value: hypnogram, ms } = timed(() => stageSleep({ hr: record.hr, beats: record.beats }));
  const epochs = new Confusion(4);
  for (const epoch of record.epochs) {
    const truth = STAGE_BY_LABEL[epoch.stage];
    if (truth === undefined) continue;
    const predicted = hypnogram[Math.round(epoch.t / EPOCH_SECONDS)] ?? UNKNOWN;
    epochs.add(truth, predicted === UNKNOWN ? Stage.wake : predicted);
  }
  return { kind: 'staging', epochs, ms };
}

function scoreRhythm(record: RhythmRecord): RhythmScore {
  const { value: result, ms } = timed(() => detectAf(record.beats, record.duration));
  const truth = minuteRhythms(record.runs, result.minutes.length);
  const minutes = new Confusion(2);
  let unknown = 0;
  truth.forEach((expected, m) => {
    if (expected === UNKNOWN) return;
    const answer = result.minutes[m] ?? UNKNOWN;
    if (answer === UNKNOWN) unknown++;
    else minutes.add(expected, answer);
  });
  return {
    kind: 'rhythm',
    minutes,
    unknown,
    burden: result.burden,
    referenceBurden: numberOr(record.reference['af_fraction']),
    ms,
  };
}

function hrvCheck(record: DatasetRecord): HrvCheck {
  const measured = hrv(record.beats);
  return {
    sdnn: measured?.sdnn ?? null,
    rmssd: measured?.rmssd ?? null,
    referenceSdnn: numberOr(record.reference['sdnn_ms']),
    referenceRmssd: numberOr(record.reference['rmssd_ms']),
  };
}

export function scoreRecord(record: DatasetRecord): RecordScore {
  const score =
    record.kind === 'apnea'
      ? scoreApnea(record)
      : record.kind === 'staging'
        ? scoreStaging(record)
        : scoreRhythm(record);
  return { ...score, hrv: hrvCheck(record) };
}
