/**
 * Heart-rate variability from beat-to-beat intervals. Only NN ("normal-to-normal") intervals
 * count: plausible (300–2000 ms) and within 20% of the interval before, which drops ectopic
 * beats and missed or extra detections the way the datasets' reference values were computed
 * (and as the Task Force of ESC/NASPE 1996 recommends editing before time-domain measures).
 */
import { isPlausibleRr, type BeatSeries } from './series.ts';

export interface Hrv {
  /** Root mean square of successive NN differences (ms): short-term, vagal. */
  rmssd: number;
  /** Standard deviation of NN intervals (ms, population) over the whole window. */
  sdnn: number;
  /** Mean NN interval (ms). */
  meanNn: number;
  /** NN intervals used. */
  count: number;
}

/** The fewest NN intervals for a figure worth showing (about 5 minutes at 60 bpm, the
 * standard short-term recording). */
export const MIN_NN_INTERVALS = 300;

const MAX_STEP = 0.2;

/**
 * HRV over the beats of the epochs marked true in `epochs` (all beats when omitted). An interval
 * is NN when plausible and within 20% of the previous plausible one; RMSSD takes the differences
 * of NN intervals that follow each other, never across a dropped beat. This is the datasets'
 * reference definition (without their beat labels, which devices do not send), so
 * `sleep:validate` can check it against their whole-record values.
 */
export function hrv(beats: BeatSeries, epochs?: ArrayLike<boolean>, epochSeconds = 30): Hrv | null {
  let count = 0;
  let sum = 0;
  let sumSquares = 0;
  let diffCount = 0;
  let diffSquares = 0;
  let previousPlausible = Number.NaN;
  let previousNn = Number.NaN;
  for (let i = 0; i < beats.rr.length; i++) {
    const rr = beats.rr[i] ?? Number.NaN;
    if (!isPlausibleRr(rr)) {
      previousNn = Number.NaN;
      continue;
    }
    const inEpochs = epochs === undefined || epochs[Math.floor((beats.t[i] ?? 0) / epochSeconds)] === true;
    const steady = Math.abs(rr - previousPlausible) <= MAX_STEP * previousPlausible;
    previousPlausible = rr;
    if (!inEpochs || !steady) {
      previousNn = Number.NaN; // successive differences never span a dropped beat
      continue;
    }
    count++;
    sum += rr;
    sumSquares += rr * rr;
    if (Number.isFinite(previousNn)) {
      diffCount++;
      diffSquares += (rr - previousNn) * (rr - previousNn);
    }
    previousNn = rr;
  }
  if (count < MIN_NN_INTERVALS || diffCount === 0) return null;
  const meanNn = sum / count;
  return {
    rmssd: Math.sqrt(diffSquares / diffCount),
    sdnn: Math.sqrt(Math.max(0, sumSquares / count - meanNn * meanNn)),
    meanNn,
    count,
  };
}
