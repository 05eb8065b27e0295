/**
 * How the datasets' expert labels become the detectors' answers: one place, read by the
 * validation (evaluate.ts) and the fitting scripts alike. No detector is imported here, so a
 * fitting script can load it without loading the detectors it does not fit.
 */
import { Stage, UNKNOWN } from '../series.ts';
import type { RhythmRecord } from './datasets.ts';

/** R&K stages as wake / REM / light (1 + 2) / deep (3 + 4); movement time is not a stage. */
export const STAGE_BY_LABEL: Record<string, number> = {
  W: Stage.wake,
  R: Stage.rem,
  '1': Stage.light,
  '2': Stage.light,
  '3': Stage.deep,
  '4': Stage.deep,
};

/** Per minute: AF when more than half of it lies in an AFIB run, non-AF when more than half
 * lies in another labelled run, not scored otherwise. UNKNOWN answers are counted apart. */
export function minuteRhythms(runs: RhythmRecord['runs'], minutes: number): Uint8Array {
  const afSeconds = new Float64Array(minutes);
  const labelled = new Float64Array(minutes);
  for (const run of runs) {
    for (let m = Math.max(0, Math.floor(run.start / 60)); m < minutes && m * 60 < run.end; m++) {
      const overlap = Math.min(run.end, (m + 1) * 60) - Math.max(run.start, m * 60);
      if (overlap <= 0) continue;
      labelled[m] = (labelled[m] ?? 0) + overlap;
      if (run.rhythm === 'AFIB') afSeconds[m] = (afSeconds[m] ?? 0) + overlap;
    }
  }
  const truth = new Uint8Array(minutes).fill(UNKNOWN);
  for (let m = 0; m < minutes; m++) {
    const af = afSeconds[m] ?? 0;
    const other = (labelled[m] ?? 0) - af;
    if (af > 30) truth[m] = 1;
    else if (other > 30) truth[m] = 0;
  }
  return truth;
}
