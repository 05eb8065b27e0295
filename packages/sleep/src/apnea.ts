/**
 * Sleep apnea / hypopnea from heart rate, one answer a minute, and the night's AHI estimate.
 *
 * An obstructive event leaves a mark on the heart: the pulse slows while breathing stops and
 * surges when it resumes, so a run of events becomes a cyclic variation of heart rate (CVHR)
 * with a period of 30–90 s. Each minute is described by features of a window around it:
 * the share of the heart-rate spectrum in the CVHR band, the power above it, how periodic the
 * slow swings are, their size, the surges and dips of the detrended rate and the rate's level
 * against the night. With beat intervals two more: their spread, and slow against fast
 * (breathing) interval power, since breathing stops during an event. A logistic regression
 * (coefficients fitted offline by `validate/fit-apnea.ts`) turns them into a probability, which
 * is averaged over ±2 minutes. The AHI is a fitted multiple of the share of minutes over a
 * fitted threshold: a per-minute detector counts minutes, not events.
 */
import { isPlausibleRr, UNKNOWN, type BeatSeries } from './series.ts';

/** Seconds from the night's start, [start, end). */
export interface ApneaEvent {
  start: number;
  end: number;
}
export interface ApneaResult {
  /** One entry per minute from second 0 (length ceil(hr.length / 60)): 1 the minute contains apnea or hypopnea, 0 normal breathing, UNKNOWN (255) too little signal. */
  minutes: Uint8Array;
  /** Apnea / hypopnea episodes (runs of apnea minutes or finer if you can), for the report's event list. */
  events: ApneaEvent[];
  /** Estimated apnea–hypopnea index (events per hour); null when less than an hour is analysable. */
  ahi: number | null;
}

const MINUTE = 60;
/** Bed sensors drop a few samples now and then: gaps up to this long are bridged by a straight line. */
const BRIDGE_SECONDS = 10;
/** A minute is judged only when at least this many of its seconds carry a heart rate. */
const MIN_SECONDS_PER_MINUTE = 30;

/* Spectrum: 128 samples at 0.5 Hz (256 s) centred on the minute; bin k is k / 256 Hz. */
const SPECTRUM_SIZE = 128;
const SPECTRUM_HALF_SPAN = SPECTRUM_SIZE; // seconds either side of the minute's centre
/** Bins 3–17 (0.012–0.066 Hz): the CVHR band. 18–38 (0.07–0.15 Hz): faster swings. */
const CVHR_BINS = [3, 17] as const;
const FAST_BINS = [18, 38] as const;
/** The spectrum is used only when this share of its window has a heart rate. */
const MIN_SPECTRUM_SHARE = 0.6;

/** Lags (s) at which the periodicity of the slow swings is looked for: 21, 24, … 93 s. */
const CYCLE_LAGS = Int32Array.from({ length: 25 }, (_, i) => 21 + 3 * i);

/** Names of the features, in the order of the model's coefficients. */
export const HR_FEATURES = [
  'cvhrShare', // CVHR-band power / power below 0.15 Hz
  'fastPower', // log power 0.07–0.15 Hz
  'hrLevel', // minute's mean rate − the night's median minute (bpm)
  'periodicity', // best autocorrelation of the slow swings at a 21–93 s lag, 3 minutes
  'swing1', // log variance of the slow swings, this minute
  'swing3', // … over 3 minutes
  'surge', // log upper semi-deviation of the detrended rate, 5 minutes, − the night's 10th centile
  'dip', // log lower semi-deviation of the detrended rate, 3 minutes
] as const;
/** With beats, appended to HR_FEATURES. */
export const BEAT_FEATURES = [
  'rrSpread', // log SD of the clean intervals, this minute, − the night's 10th centile
  'breathingRatio', // log slow / fast interval power, 3 minutes, − the night's 10th centile
] as const;

export interface LogisticModel {
  /** Feature means and scales used to standardise; weights act on standardised features. */
  mean: readonly number[];
  scale: readonly number[];
  weights: readonly number[];
  bias: number;
}

/** Fitted by `npx tsx packages/sleep/src/validate/fit-apnea.ts /work/shared/datasets`. */
export const HR_MODEL: LogisticModel = {
  mean: [0.6956, 4.3879, 0.6226, 0.4098, 2.1107, 2.2993, 0.5843, 1.0676],
  scale: [0.1714, 1.3289, 4.6425, 0.221, 1.4413, 1.3099, 0.486, 0.4998],
  weights: [0.4186, -1.237, -0.5451, 0.3995, 0.5207, 1.1599, -0.8066, 1.2337],
  bias: -1.1165,
};
export const BEAT_MODEL: LogisticModel = {
  mean: [0.6958, 4.37, 0.6581, 0.41, 2.0972, 2.2859, 0.5806, 1.0607, 0.6136, 1.0463],
  scale: [0.1717, 1.3141, 4.6038, 0.2212, 1.4311, 1.2998, 0.4843, 0.4926, 0.5209, 0.828],
  weights: [0.3073, -1.2121, -0.4335, 0.4705, -0.1279, 1.6402, -1.2682, 1.1135, 0.5968, 0.2907],
  bias: -1.1512,
};
/** Probabilities are averaged over this many judged minutes either side. */
export const SMOOTH_MINUTES = 2;
/** A minute is called apnea at a smoothed probability ≥ this (the most accurate answer per minute). */
export const MINUTE_THRESHOLD = 0.5;
/** The AHI counts minutes at a smoothed probability ≥ AHI_THRESHOLD and scales their share of
 * the judged minutes: AHI ≈ AHI_PER_APNEA_SHARE × share. Both fitted (√AHI least squares). */
export const AHI_THRESHOLD = 0.4;
export const AHI_PER_APNEA_SHARE = 74;
/** The AHI needs at least an hour of judged minutes. */
const MIN_AHI_MINUTES = 60;

export interface ApneaFeatures {
  minutes: number;
  /** 1 when the minute has enough heart rate to be judged. */
  judged: Uint8Array;
  /** Row-major minutes × HR_FEATURES.length. */
  hr: Float64Array;
  /** Row-major minutes × BEAT_FEATURES.length; NaN where the minute has too few clean beats. */
  beat: Float64Array;
}

/** A heart rate a sensor can mean; 0, negative or absurd readings are gaps. */
const isMeasuredRate = (bpm: number): boolean => bpm >= 25 && bpm <= 250;

/** The heart rate with short gaps bridged; longer gaps stay NaN. */
function bridgeGaps(hr: Float32Array): Float64Array {
  const x = new Float64Array(hr.length);
  let last = -1;
  for (let i = 0; i < hr.length; i++) {
    const v = hr[i] ?? Number.NaN;
    if (!isMeasuredRate(v)) {
      x[i] = Number.NaN;
      continue;
    }
    x[i] = v;
    const gap = i - last;
    if (last >= 0 && gap > 1 && gap <= BRIDGE_SECONDS + 1) {
      const from = x[last] ?? v;
      for (let j = last + 1; j < i; j++) x[j] = from + ((v - from) * (j - last)) / gap;
    }
    last = i;
  }
  return x;
}

/** Running sums of a series and of its number of values, so that any moving mean costs O(1) a sample. */
interface PrefixSums {
  sum: Float64Array;
  count: Float64Array;
}

function prefixSums(x: Float64Array): PrefixSums {
  const sum = new Float64Array(x.length + 1);
  const count = new Float64Array(x.length + 1);
  let s = 0;
  let c = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] ?? Number.NaN;
    if (v === v) {
      s += v;
      c++;
    }
    sum[i + 1] = s;
    count[i + 1] = c;
  }
  return { sum, count };
}

/** Moving mean at i from prefix sums (half-width `half`), NaN where under half the window has data. */
function meanAt(sum: Float64Array, count: Float64Array, i: number, half: number): number {
  const n = sum.length - 1;
  const a = i - half < 0 ? 0 : i - half;
  const b = i + half + 1 > n ? n : i + half + 1;
  const c = (count[b] ?? 0) - (count[a] ?? 0);
  return c > half ? ((sum[b] ?? 0) - (sum[a] ?? 0)) / c : Number.NaN;
}

function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).filter((v) => !Number.isNaN(v));
  if (sorted.length === 0) return Number.NaN;
  sorted.sort();
  return sorted[Math.floor(q * (sorted.length - 1))] ?? Number.NaN;
}

/* ---- spectrum ---- */

const BIT_REVERSED = (() => {
  const bits = Math.log2(SPECTRUM_SIZE);
  return Uint16Array.from({ length: SPECTRUM_SIZE }, (_, i) => {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
  });
})();
const TWIDDLE_COS = Float64Array.from({ length: SPECTRUM_SIZE / 2 }, (_, k) =>
  Math.cos((2 * Math.PI * k) / SPECTRUM_SIZE),
);
const TWIDDLE_SIN = Float64Array.from(
  { length: SPECTRUM_SIZE / 2 },
  (_, k) => -Math.sin((2 * Math.PI * k) / SPECTRUM_SIZE),
);
const HANN = Float64Array.from(
  { length: SPECTRUM_SIZE },
  (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (SPECTRUM_SIZE - 1)),
);
const HANN_POWER = HANN.reduce((s, w) => s + w * w, 0);

/** In-place radix-2 FFT of (re, im), both of length SPECTRUM_SIZE. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = SPECTRUM_SIZE;
  for (let i = 0; i < n; i++) {
    const j = BIT_REVERSED[i] ?? 0;
    if (j > i) {
      const tr = re[i] ?? 0;
      re[i] = re[j] ?? 0;
      re[j] = tr;
      const ti = im[i] ?? 0;
      im[i] = im[j] ?? 0;
      im[j] = ti;
    }
  }
  for (let size = 2; size <= n; size *= 2) {
    const half = size / 2;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = TWIDDLE_COS[k * step] ?? 1;
        const wi = TWIDDLE_SIN[k * step] ?? 0;
        const a = start + k;
        const b = a + half;
        const br = re[b] ?? 0;
        const bi = im[b] ?? 0;
        const tr = wr * br - wi * bi;
        const ti = wr * bi + wi * br;
        re[b] = (re[a] ?? 0) - tr;
        im[b] = (im[a] ?? 0) - ti;
        re[a] = (re[a] ?? 0) + tr;
        im[a] = (im[a] ?? 0) + ti;
      }
    }
  }
}

/** The heart rate at 0.5 Hz (mean of each pair of seconds), NaN where both are missing. */
function halfRate(x: Float64Array): Float64Array {
  const out = new Float64Array(Math.ceil(x.length / 2));
  for (let i = 0; i < out.length; i++) {
    const a = x[2 * i] ?? Number.NaN;
    const b = x[2 * i + 1] ?? Number.NaN;
    out[i] = Number.isNaN(a) ? b : Number.isNaN(b) ? a : (a + b) / 2;
  }
  return out;
}

interface SpectralFeatures {
  cvhrShare: Float64Array;
  fastPower: Float64Array;
}

/** Per minute: detrended, Hann-windowed power spectrum of 256 s around it. Two minutes share
 * one complex FFT (one as the real part, the next as the imaginary part), halving the work. */
function spectralFeatures(x: Float64Array, minutes: number): SpectralFeatures {
  const slow = halfRate(x);
  const cvhrShare = new Float64Array(minutes).fill(Number.NaN);
  const fastPower = new Float64Array(minutes).fill(Number.NaN);
  const re = new Float64Array(SPECTRUM_SIZE);
  const im = new Float64Array(SPECTRUM_SIZE);
  const firstSample = (m: number): number => (m * MINUTE + MINUTE / 2 - SPECTRUM_HALF_SPAN) / 2;
  for (let m = 0; m < minutes; m += 2) {
    const hasFirst = detrendedWindow(slow, firstSample(m), re);
    const hasSecond = m + 1 < minutes && detrendedWindow(slow, firstSample(m + 1), im);
    if (!hasFirst && !hasSecond) continue;
    for (let i = 0; i < SPECTRUM_SIZE; i++) {
      const w = HANN[i] ?? 0;
      re[i] = hasFirst ? (re[i] ?? 0) * w : 0;
      im[i] = hasSecond ? (im[i] ?? 0) * w : 0;
    }
    fft(re, im);
    if (hasFirst) describeSpectrum(re, im, 1, m, cvhrShare, fastPower);
    if (hasSecond) describeSpectrum(re, im, -1, m + 1, cvhrShare, fastPower);
  }
  return { cvhrShare, fastPower };
}

/** Band powers of the real-part signal (sign 1) or the imaginary-part signal (sign −1) of a
 * shared FFT: X(k) = (Z(k) ± conj Z(N−k)) / 2 (÷ i for the second). */
function describeSpectrum(
  re: Float64Array,
  im: Float64Array,
  sign: 1 | -1,
  m: number,
  cvhrShare: Float64Array,
  fastPower: Float64Array,
): void {
  let total = 0;
  let cvhr = 0;
  let fast = 0;
  for (let k = 1; k <= FAST_BINS[1]; k++) {
    const a = (re[k] ?? 0) + sign * (re[SPECTRUM_SIZE - k] ?? 0);
    const b = (im[k] ?? 0) - sign * (im[SPECTRUM_SIZE - k] ?? 0);
    const power = (a * a + b * b) / (4 * HANN_POWER);
    total += power;
    if (k >= CVHR_BINS[0] && k <= CVHR_BINS[1]) cvhr += power;
    if (k >= FAST_BINS[0]) fast += power;
  }
  cvhrShare[m] = cvhr / (total + 1e-6);
  fastPower[m] = Math.log(fast + 0.01);
}

/** Copies slow[first…] into out with its straight-line trend removed (missing samples → 0);
 * false when too little of the window has data. */
function detrendedWindow(slow: Float64Array, first: number, out: Float64Array): boolean {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < SPECTRUM_SIZE; i++) {
    const v = slow[first + i] ?? Number.NaN;
    out[i] = v;
    if (Number.isNaN(v)) continue;
    n++;
    sx += i;
    sy += v;
    sxy += i * v;
    sxx += i * i;
  }
  if (n < MIN_SPECTRUM_SHARE * SPECTRUM_SIZE) return false;
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const intercept = (sy - slope * sx) / n;
  for (let i = 0; i < SPECTRUM_SIZE; i++) {
    const v = out[i] ?? Number.NaN;
    out[i] = Number.isNaN(v) ? 0 : v - (intercept + slope * i);
  }
  return true;
}

/* ---- per-minute sums of the slow swings ---- */

interface MinuteSums {
  seconds: Float64Array; // seconds with a measured heart rate
  rate: Float64Array; // sum of the measured heart rate
  swingCount: Float64Array;
  swingEnergy: Float64Array;
  cycleEnergy: Float64Array; // Σ swing(t)², every other second
  lagged: Float64Array; // minutes × CYCLE_LAGS: Σ swing(t)·swing(t+lag), every other second
  detrendCount: Float64Array;
  above: Float64Array; // Σ max(d, 0)²
  below: Float64Array; // Σ min(d, 0)²
}

function minuteSums(hr: Float32Array, x: Float64Array, minutes: number): MinuteSums {
  const { sum, count } = prefixSums(x);
  const sums: MinuteSums = {
    seconds: new Float64Array(minutes),
    rate: new Float64Array(minutes),
    swingCount: new Float64Array(minutes),
    swingEnergy: new Float64Array(minutes),
    cycleEnergy: new Float64Array(minutes),
    lagged: new Float64Array(minutes * CYCLE_LAGS.length),
    detrendCount: new Float64Array(minutes),
    above: new Float64Array(minutes),
    below: new Float64Array(minutes),
  };
  const { seconds, rate, swingCount, swingEnergy, detrendCount, above, below } = sums;
  const swing = new Float64Array(x.length);
  for (let t = 0; t < x.length; t++) {
    const m = Math.floor(t / MINUTE);
    const measured = hr[t] ?? Number.NaN;
    if (isMeasuredRate(measured)) {
      seconds[m] = (seconds[m] ?? 0) + 1;
      rate[m] = (rate[m] ?? 0) + measured;
    }
    // The detrended rate: 3-s mean − 121-s mean.
    const d = meanAt(sum, count, t, 1) - meanAt(sum, count, t, 60);
    if (d === d) {
      detrendCount[m] = (detrendCount[m] ?? 0) + 1;
      if (d > 0) above[m] = (above[m] ?? 0) + d * d;
      else below[m] = (below[m] ?? 0) + d * d;
    }
    // The slow swings: 5-s mean − 61-s mean (≈ 0.01–0.1 Hz).
    const s = meanAt(sum, count, t, 2) - meanAt(sum, count, t, 30);
    swing[t] = s;
    if (s !== s) continue;
    swingCount[m] = (swingCount[m] ?? 0) + 1;
    swingEnergy[m] = (swingEnergy[m] ?? 0) + s * s;
  }
  laggedSums(swing, sums);
  return sums;
}

/** Autocorrelation sums of the swings per minute. The swings are smooth (5-s mean), so every
 * other second is enough; a missing sample counts as 0, so only pairs with data add up. */
function laggedSums(swing: Float64Array, sums: MinuteSums): void {
  const lags = CYCLE_LAGS.length;
  // Padded with zeros past the end so the lagged reads never leave the array.
  const filled = new Float64Array(swing.length + (CYCLE_LAGS[lags - 1] ?? 0) + 1);
  for (let t = 0; t < swing.length; t++) {
    const v = swing[t] ?? Number.NaN;
    filled[t] = v === v ? v : 0;
  }
  const acc = new Float64Array(lags);
  const minutes = sums.cycleEnergy.length;
  for (let m = 0; m < minutes; m++) {
    acc.fill(0);
    let energy = 0;
    const end = Math.min(swing.length, (m + 1) * MINUTE);
    for (let t = m * MINUTE; t < end; t += 2) {
      const s = filled[t] ?? 0;
      if (s === 0) continue;
      energy += s * s;
      for (let j = 0; j < lags; j++) acc[j] = (acc[j] ?? 0) + s * (filled[t + (CYCLE_LAGS[j] ?? 0)] ?? 0);
    }
    sums.cycleEnergy[m] = energy;
    sums.lagged.set(acc, m * lags);
  }
}

/** Sum of `values` over minutes m−k … m+k. */
function around(values: Float64Array, m: number, k: number): number {
  let total = 0;
  for (let q = Math.max(0, m - k); q <= Math.min(values.length - 1, m + k); q++) total += values[q] ?? 0;
  return total;
}

function periodicity(sums: MinuteSums, m: number): number {
  const lags = CYCLE_LAGS.length;
  const energy = around(sums.cycleEnergy, m, 1);
  if (around(sums.swingCount, m, 1) < 90 || energy <= 0) return Number.NaN;
  let best = -Infinity;
  for (let j = 0; j < lags; j++) {
    let lagged = 0;
    for (let q = Math.max(0, m - 1); q <= Math.min(sums.seconds.length - 1, m + 1); q++) {
      lagged += sums.lagged[q * lags + j] ?? 0;
    }
    best = Math.max(best, lagged / energy);
  }
  return best;
}

function logMean(energy: number, count: number, minCount: number): number {
  return count >= minCount ? Math.log(energy / count + 0.05) : Number.NaN;
}

function semiDeviation(side: Float64Array, sums: MinuteSums, m: number, k: number): number {
  const count = around(sums.detrendCount, m, k);
  return count >= 60 ? Math.log(Math.sqrt(around(side, m, k) / count) + 0.5) : Number.NaN;
}

/** The intervals with missed or extra detections (implausible, or > 30 % off the one before) as NaN. */
function cleanIntervals(beats: BeatSeries): Float64Array {
  const clean = new Float64Array(beats.rr.length);
  let previous = Number.NaN;
  for (let i = 0; i < beats.rr.length; i++) {
    const rr = beats.rr[i] ?? Number.NaN;
    if (!isPlausibleRr(rr)) {
      clean[i] = Number.NaN;
      continue;
    }
    clean[i] = previous !== previous || Math.abs(rr - previous) < 0.3 * previous ? rr : Number.NaN;
    previous = rr;
  }
  return clean;
}

/** Per minute, the log SD of the clean intervals. */
function rrSpread(beats: BeatSeries, clean: Float64Array, minutes: number): Float64Array {
  const sum = new Float64Array(minutes);
  const squares = new Float64Array(minutes);
  const count = new Float64Array(minutes);
  for (let i = 0; i < clean.length; i++) {
    const rr = clean[i] ?? Number.NaN;
    const m = Math.floor((beats.t[i] ?? Number.NaN) / MINUTE);
    if (rr !== rr || !(m >= 0 && m < minutes)) continue;
    sum[m] = (sum[m] ?? 0) + rr;
    squares[m] = (squares[m] ?? 0) + rr * rr;
    count[m] = (count[m] ?? 0) + 1;
  }
  return Float64Array.from({ length: minutes }, (_, m) => {
    const c = count[m] ?? 0;
    if (c < 20) return Number.NaN;
    const mean = (sum[m] ?? 0) / c;
    return Math.log(Math.sqrt(Math.max(0, (squares[m] ?? 0) / c - mean * mean)) + 1);
  });
}

/** Per minute (3-minute window), in beats: log of slow (5-beat mean − 31-beat mean) over fast
 * (interval − 5-beat mean, mostly breathing) interval power. Apnea silences the breathing
 * part and swells the slow one. */
function breathingRatio(beats: BeatSeries, clean: Float64Array, minutes: number): Float64Array {
  const { sum, count } = prefixSums(clean);
  const fast = new Float64Array(minutes);
  const slow = new Float64Array(minutes);
  const used = new Float64Array(minutes);
  for (let i = 0; i < clean.length; i++) {
    const rr = clean[i] ?? Number.NaN;
    const m = Math.floor((beats.t[i] ?? Number.NaN) / MINUTE);
    if (rr !== rr || !(m >= 0 && m < minutes)) continue;
    const local = meanAt(sum, count, i, 2);
    const f = rr - local;
    const s = local - meanAt(sum, count, i, 15);
    if (s !== s) continue;
    fast[m] = (fast[m] ?? 0) + f * f;
    slow[m] = (slow[m] ?? 0) + s * s;
    used[m] = (used[m] ?? 0) + 1;
  }
  return Float64Array.from({ length: minutes }, (_, m) =>
    around(used, m, 1) >= 60 ? Math.log((around(slow, m, 1) + 1) / (around(fast, m, 1) + 1)) : Number.NaN,
  );
}

/** The per-minute features the models read (exported for the fitting script). Levels against
 * the night's median or quiet 10th centile make a feature speak of this night, not this heart. */
export function apneaFeatures(input: { hr: Float32Array; beats?: BeatSeries | undefined }): ApneaFeatures {
  const { hr, beats } = input;
  const minutes = Math.ceil(hr.length / MINUTE);
  const x = bridgeGaps(hr);
  const spectrum = spectralFeatures(x, minutes);
  const sums = minuteSums(hr, x, minutes);
  const judged = Uint8Array.from({ length: minutes }, (_, m) =>
    (sums.seconds[m] ?? 0) >= MIN_SECONDS_PER_MINUTE ? 1 : 0,
  );
  const level = Float64Array.from({ length: minutes }, (_, m) =>
    judged[m] ? (sums.rate[m] ?? 0) / (sums.seconds[m] ?? 1) : Number.NaN,
  );
  const nightRate = quantile(level, 0.5);
  const surge = Float64Array.from({ length: minutes }, (_, m) => semiDeviation(sums.above, sums, m, 2));
  const quietSurge = quantile(surge, 0.1);
  const nf = HR_FEATURES.length;
  const features = new Float64Array(minutes * nf);
  for (let m = 0; m < minutes; m++) {
    const row = [
      spectrum.cvhrShare[m] ?? Number.NaN,
      spectrum.fastPower[m] ?? Number.NaN,
      (level[m] ?? Number.NaN) - nightRate,
      periodicity(sums, m),
      logMean(sums.swingEnergy[m] ?? 0, sums.swingCount[m] ?? 0, 20),
      logMean(around(sums.swingEnergy, m, 1), around(sums.swingCount, m, 1), 60),
      (surge[m] ?? Number.NaN) - quietSurge,
      semiDeviation(sums.below, sums, m, 1),
    ];
    features.set(row, m * nf);
  }
  const nb = BEAT_FEATURES.length;
  const beat = new Float64Array(minutes * nb).fill(Number.NaN);
  if (beats && beats.t.length > 0) {
    const clean = cleanIntervals(beats);
    const spread = rrSpread(beats, clean, minutes);
    const quiet = quantile(spread, 0.1);
    const ratio = breathingRatio(beats, clean, minutes);
    const usual = quantile(ratio, 0.1);
    for (let m = 0; m < minutes; m++) {
      beat[m * nb] = (spread[m] ?? Number.NaN) - quiet;
      beat[m * nb + 1] = (ratio[m] ?? Number.NaN) - usual;
    }
  }
  return { minutes, judged, hr: features, beat };
}

/** Probability of apnea from one standardised feature row; NaN features count as the mean. */
export function apneaProbability(model: LogisticModel, row: ArrayLike<number>): number {
  let z = model.bias;
  for (let j = 0; j < model.weights.length; j++) {
    const v = row[j] ?? Number.NaN;
    if (Number.isNaN(v)) continue;
    z += ((model.weights[j] ?? 0) * (v - (model.mean[j] ?? 0))) / (model.scale[j] ?? 1);
  }
  return 1 / (1 + Math.exp(-z));
}

/** Per minute, the model's probability (NaN where the minute is not judged). */
export function minuteProbabilities(features: ApneaFeatures, hrModel = HR_MODEL, beatModel = BEAT_MODEL): Float64Array {
  const nf = HR_FEATURES.length;
  const nb = BEAT_FEATURES.length;
  const row = new Float64Array(nf + nb);
  const p = new Float64Array(features.minutes).fill(Number.NaN);
  for (let m = 0; m < features.minutes; m++) {
    if (!features.judged[m]) continue;
    row.set(features.hr.subarray(m * nf, (m + 1) * nf));
    const beat = features.beat.subarray(m * nb, (m + 1) * nb);
    if (beat.some((v) => Number.isNaN(v))) {
      p[m] = apneaProbability(hrModel, row);
    } else {
      row.set(beat, nf);
      p[m] = apneaProbability(beatModel, row);
    }
  }
  return p;
}

/** Mean probability over judged minutes within SMOOTH_MINUTES either side. */
export function smoothProbabilities(p: Float64Array, half = SMOOTH_MINUTES): Float64Array {
  return Float64Array.from(p, (v, m) => {
    if (Number.isNaN(v)) return Number.NaN;
    let sum = 0;
    let count = 0;
    for (let q = Math.max(0, m - half); q <= Math.min(p.length - 1, m + half); q++) {
      const w = p[q] ?? Number.NaN;
      if (Number.isNaN(w)) continue;
      sum += w;
      count++;
    }
    return sum / count;
  });
}

/** Runs of consecutive apnea minutes. */
function apneaRuns(minutes: Uint8Array, seconds: number): ApneaEvent[] {
  const events: ApneaEvent[] = [];
  let start = -1;
  for (let m = 0; m <= minutes.length; m++) {
    const apnea = m < minutes.length && minutes[m] === 1;
    if (apnea && start < 0) start = m;
    if (!apnea && start >= 0) {
      events.push({ start: start * MINUTE, end: Math.min(m * MINUTE, seconds) });
      start = -1;
    }
  }
  return events;
}

/** The AHI from the smoothed probabilities: the share of judged minutes at ≥ threshold, scaled. */
export function estimateAhi(p: Float64Array, threshold = AHI_THRESHOLD, perShare = AHI_PER_APNEA_SHARE): number | null {
  let judged = 0;
  let counted = 0;
  for (const v of p) {
    if (Number.isNaN(v)) continue;
    judged++;
    if (v >= threshold) counted++;
  }
  return judged < MIN_AHI_MINUTES ? null : (perShare * counted) / judged;
}

export function detectApnea(input: { hr: Float32Array; beats?: BeatSeries | undefined }): ApneaResult {
  const features = apneaFeatures(input);
  const p = smoothProbabilities(minuteProbabilities(features));
  const minutes = Uint8Array.from(p, (v) => (Number.isNaN(v) ? UNKNOWN : v >= MINUTE_THRESHOLD ? 1 : 0));
  return { minutes, events: apneaRuns(minutes, input.hr.length), ahi: estimateAhi(p) };
}
