/**
 * Atrial fibrillation from beat-to-beat intervals, one answer a minute.
 *
 * In AF the ventricles beat at random: successive interval differences (ΔRR) spread evenly over
 * a wide range. In sinus rhythm they bunch near zero, and ectopic beats or bigeminy add only a
 * few large differences. So the irregularity of a minute is the Shannon entropy of a histogram
 * of ΔRR (relative to the mean interval) over a window centred on the minute, with the outer
 * bins catching everything beyond ±35 %: ectopic jumps pile up there instead of spreading.
 * A short moving average over neighbouring minutes, then one threshold fitted by
 * `validate/fit-af.ts` on the Long-Term AF Database.
 */
import { isPlausibleRr, UNKNOWN, type BeatSeries } from './series.ts';

export interface AfResult {
  /** One entry per minute from second 0 (length ceil(seconds / 60)): 1 AF, 0 no AF, UNKNOWN (255) when the minute has too few clean beats to judge. */
  minutes: Uint8Array;
  /** AF minutes / analysable minutes; null when no minute is analysable. */
  burden: number | null;
}

/** How the irregularity is measured; `fit-af.ts` searches a small grid of these. */
export interface AfShape {
  /** Span of the window centred on each minute, in seconds. */
  windowSeconds: number;
  /** Width of a ΔRR histogram bin as a share of the window's mean interval. */
  binWidth: number;
  /** Number of bins, symmetric about ΔRR = 0; the outer two take everything beyond. */
  bins: number;
  /** The entropy is averaged over this many minutes either side. */
  smoothMinutes: number;
}

/** Chosen and fitted by `npx tsx packages/sleep/src/validate/fit-af.ts /work/shared/datasets`. */
export const AF_SHAPE: AfShape = { windowSeconds: 120, binWidth: 0.05, bins: 16, smoothMinutes: 1 };
/** Smoothed ΔRR entropy (bits) above which a minute is AF. */
export const AF_THRESHOLD_BITS = 3.33;

const MINUTE_SECONDS = 60;
/** Beats further apart than this have a dropout between them: their intervals are not successive. */
const MAX_BEAT_GAP_SECONDS = 2.5;
/** A minute is judged only when clean intervals cover at least half of it… */
const MIN_COVERED_SHARE = 0.5;
/** …and its window holds enough successive differences to fill a histogram. */
const MIN_DIFFERENCES = 40;

const minuteCount = (seconds: number): number => (seconds > 0 ? Math.ceil(seconds / MINUTE_SECONDS) : 0);

/** Per beat: 1 when its interval is plausible, 2 when the one before it is too and no gap lies between (a usable ΔRR). */
function classifyBeats(beats: BeatSeries): Uint8Array {
  const n = Math.min(beats.t.length, beats.rr.length);
  const kind = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(beats.t[i] ?? Number.NaN) || !isPlausibleRr(beats.rr[i] ?? Number.NaN)) continue;
    const previous = i > 0 ? (kind[i - 1] ?? 0) : 0;
    const gap = i > 0 ? (beats.t[i] ?? 0) - (beats.t[i - 1] ?? 0) : Infinity;
    kind[i] = previous > 0 && gap <= MAX_BEAT_GAP_SECONDS ? 2 : 1;
  }
  return kind;
}

/** Seconds of each minute covered by clean intervals (an interval counts in the minute its beat ends). */
function coveredSeconds(beats: BeatSeries, kind: Uint8Array, minutes: number): Float64Array {
  const covered = new Float64Array(minutes);
  for (let i = 0; i < kind.length; i++) {
    const m = Math.floor((beats.t[i] ?? Number.NaN) / MINUTE_SECONDS);
    if (kind[i] === 0 || !(m >= 0 && m < minutes)) continue;
    covered[m] = (covered[m] ?? 0) + (beats.rr[i] ?? 0) / 1000;
  }
  return covered;
}

/** Shannon entropy (bits) of a histogram holding `total` counts. */
function histogramEntropy(histogram: Float64Array, total: number): number {
  let bits = 0;
  for (const count of histogram) {
    if (count > 0) bits -= (count / total) * Math.log2(count / total);
  }
  return bits;
}

/**
 * ΔRR entropy of the window centred on each minute, NaN where the minute cannot be judged
 * (too little of it covered by clean beats, or too few differences in its window).
 */
export function minuteEntropy(beats: BeatSeries, seconds: number, shape: AfShape = AF_SHAPE): Float64Array {
  const minutes = minuteCount(seconds);
  const entropy = new Float64Array(minutes).fill(Number.NaN);
  const kind = classifyBeats(beats);
  const covered = coveredSeconds(beats, kind, minutes);
  const histogram = new Float64Array(shape.bins);
  const half = shape.bins / 2;
  const t = beats.t;
  const rr = beats.rr;
  let from = 0;
  let to = 0;
  for (let m = 0; m < minutes; m++) {
    const minuteLength = Math.min(MINUTE_SECONDS, seconds - m * MINUTE_SECONDS);
    const centre = m * MINUTE_SECONDS + MINUTE_SECONDS / 2;
    while (from < kind.length && !((t[from] ?? Infinity) >= centre - shape.windowSeconds / 2)) from++;
    to = Math.max(to, from);
    while (to < kind.length && !((t[to] ?? Infinity) >= centre + shape.windowSeconds / 2)) to++;
    if ((covered[m] ?? 0) < MIN_COVERED_SHARE * minuteLength) continue;

    let sum = 0;
    let count = 0;
    for (let i = from; i < to; i++) {
      if (kind[i] === 0) continue;
      sum += rr[i] ?? 0;
      count++;
    }
    const binMs = shape.binWidth * (sum / count);
    histogram.fill(0);
    let differences = 0;
    for (let i = Math.max(from, 1); i < to; i++) {
      if (kind[i] !== 2) continue;
      const bin = Math.floor(((rr[i] ?? 0) - (rr[i - 1] ?? 0)) / binMs + half);
      const clamped = Math.min(shape.bins - 1, Math.max(0, bin));
      histogram[clamped] = (histogram[clamped] ?? 0) + 1;
      differences++;
    }
    if (differences >= MIN_DIFFERENCES) entropy[m] = histogramEntropy(histogram, differences);
  }
  return entropy;
}

/** Mean of the judged minutes within `radius` of each judged minute; unjudged minutes stay NaN. */
export function smoothMinutes(values: Float64Array, radius: number): Float64Array {
  const smoothed = new Float64Array(values.length).fill(Number.NaN);
  for (let m = 0; m < values.length; m++) {
    if (Number.isNaN(values[m] ?? Number.NaN)) continue;
    let sum = 0;
    let count = 0;
    for (let k = Math.max(0, m - radius); k <= Math.min(values.length - 1, m + radius); k++) {
      const value = values[k] ?? Number.NaN;
      if (Number.isNaN(value)) continue;
      sum += value;
      count++;
    }
    smoothed[m] = sum / count;
  }
  return smoothed;
}

export function detectAf(beats: BeatSeries, seconds: number): AfResult {
  const irregularity = smoothMinutes(minuteEntropy(beats, seconds), AF_SHAPE.smoothMinutes);
  const minutes = new Uint8Array(irregularity.length).fill(UNKNOWN);
  let judged = 0;
  let af = 0;
  irregularity.forEach((bits, m) => {
    if (Number.isNaN(bits)) return;
    minutes[m] = bits > AF_THRESHOLD_BITS ? 1 : 0;
    judged++;
    af += minutes[m] ?? 0;
  });
  return { minutes, burden: judged === 0 ? null : af / judged };
}
