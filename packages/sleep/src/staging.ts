/**
 * Sleep stages (wake / REM / light / deep) per 30-s epoch from heart rate, beat intervals and,
 * when the bed sensor sends it, body movement.
 *
 * The heart tells the stages apart only loosely: awake, the vagal brake is off (beat-to-beat
 * variability, RMSSD, falls) and the rate is up; in REM the rate rises and wanders slowly (slow
 * variability large against the fast: SDNN / RMSSD up), and REM gathers late in the night; deep
 * sleep is the steadiest stretch of the night. Each epoch is described by five such features over
 * centred windows of 2.5 to 20 minutes, each measured against the night's own distribution
 * (people differ far more from each other than from their own other nights), plus its position
 * in the night (REM late; and the rate drifts down through the night, which the wake question
 * must not mistake for falling asleep). Three small logistic regressions answer "awake?", "REM,
 * if asleep?" and "deep, if non-REM?"; together they give a probability per stage, and a
 * hidden-Markov (Viterbi) pass picks the likeliest sequence under transition odds counted from
 * expert hypnograms. Coefficients are fitted offline by `validate/fit-staging.ts`. Epochs whose
 * surroundings lack beats use a heart-rate-only set of models; movement, when present, adds
 * evidence for wake. Epochs without enough heart rate are UNKNOWN.
 */
import { EPOCH_SECONDS, isPlausibleRr, UNKNOWN, type BeatSeries } from './series.ts';

export interface StagingInput {
  /** 1 Hz from second 0, NaN in gaps. */
  hr: Float32Array;
  /** Beat intervals; absent on many bed sensors. */
  beats?: BeatSeries | undefined;
  /** 1 Hz body movement 0–100 from the bed sensor, NaN in gaps. */
  move?: Float32Array | undefined;
}

/** An epoch is judged only with at least this many seconds of heart rate in it. */
export const MIN_SECONDS_PER_EPOCH = 15;
/** Per-night normalisation needs some night: with fewer judged epochs (10 min) all are UNKNOWN. */
export const MIN_NIGHT_EPOCHS = 20;
/** Beat features are used for an epoch only when its RMSSD window holds this many successive differences. */
const MIN_BEAT_DIFFERENCES = 30;
/** An interval is NN when within 20 % of the plausible interval before it (ectopics, missed beats). */
const MAX_NN_STEP = 0.2;
/** A successive difference counts only between NN beats this close (s): none across a dropout. */
const MAX_DIFFERENCE_GAP = 2.5;

/* Half-widths of the centred windows, in epochs (±2 = 2.5 min, ±5 = 5.5 min, ±10 = 10.5 min, ±20 = 20.5 min). */
const FAST_WINDOW = 2;
const BEAT_WINDOW = 5;
const SPREAD_WINDOW = 10;
const SLOW_WINDOW = 20;

/** Offsets that keep the logarithms finite at zero variability (bpm, ms). */
const SPREAD_FLOOR = 0.3;
const RR_FLOOR = 1;
/** Seconds per block whose means give an epoch's heart-rate spread. */
const SPREAD_BLOCK = 5;

/**
 * Feature columns. `…Low` is measured from the night's 10th centile, `…Scaled` also divided by
 * the night's 10–90th centile range.
 */
export const FEATURES = [
  'hrFastLow', // log mean HR, ±2 epochs, − the night's 10th centile
  'hrSlowScaled', // log mean HR, ±20 epochs, from the 10th centile in 10–90 ranges
  'spreadLow', // log mean within-epoch SD of 5-s HR means, ±10 epochs, − 10th centile
  'rmssdScaled', // log RMSSD, ±5 epochs, from the 10th centile in 10–90 ranges
  'ratioFastLow', // log (SDNN / RMSSD), ±5 epochs, − 10th centile
  'position', // 0 at the first judged epoch of the night, 1 at the last
] as const;
export type FeatureName = (typeof FEATURES)[number];

export interface NightFeatures {
  epochs: number;
  /** 1 where the epoch has enough heart rate to be judged. */
  judged: Uint8Array;
  /** 1 where the beat columns are defined too. */
  withBeats: Uint8Array;
  /** One value per epoch per column (NaN where undefined). */
  columns: Record<FeatureName, Float64Array>;
}

/** `intercept + Σ weight · column`, the log-odds of one yes/no question. */
export interface Logistic {
  intercept: number;
  weights: Partial<Record<FeatureName, number>>;
}

/** Three questions answered in turn: awake? if asleep, REM? if non-REM, deep? */
export interface StageModel {
  wake: Logistic;
  rem: Logistic;
  deep: Logistic;
  /** Added to each stage's log-evidence (wake, REM, light, deep): sets how readily each is called. */
  bias: readonly [number, number, number, number];
}

export interface StagingParameters {
  beats: StageModel;
  heartRate: StageModel;
  /** log share of each stage in the training hypnograms (wake, REM, light, deep). */
  logPrior: readonly number[];
  /** log P(next stage | stage), row = from, column = to, 4 × 4 row-major. */
  logTransition: readonly number[];
}

/** Fitted by `npx tsx packages/sleep/src/validate/fit-staging.ts /work/shared/datasets`. */
export const PARAMETERS: StagingParameters = {
  beats: {
    wake: { intercept: -1.0729, weights: { rmssdScaled: -2.1788, hrFastLow: 8.4239, position: 1.2685 } },
    rem: { intercept: -6.3197, weights: { ratioFastLow: 2.5607, hrSlowScaled: 2.2718, position: 3.3138 } },
    deep: { intercept: -1.0608, weights: { spreadLow: -3.485 } },
    bias: [0, -0.5, 0, -0.5],
  },
  heartRate: {
    wake: { intercept: -1.8697, weights: { hrFastLow: 13.5576, spreadLow: -1.3893, position: 1.2682 } },
    rem: { intercept: -6.6085, weights: { hrSlowScaled: 3.0118, spreadLow: 0.7814, position: 4.3266 } },
    deep: { intercept: -1.0608, weights: { spreadLow: -3.485 } },
    bias: [0, -0.75, 0, -0.25],
  },
  logPrior: [-1.0559, -2.7934, -0.6314, -2.8292],
  logTransition: [
    -0.1239, -5.4496, -2.1915, -7.6468, -3.0285, -0.1018, -3.0857, -5.9189, -2.6754, -4.8109, -0.1084, -3.6623, -4.4858,
    -5.8721, -1.5414, -0.259,
  ],
};

/* Movement (0–100, no dataset has it, so these are set by hand, not fitted): a second at or above
 * MOVING_LEVEL is restless; each restless second of an epoch adds evidence for wake, up to a cap,
 * and five still minutes around an epoch take a little away (lying awake still is common, so little). */
export const MOVING_LEVEL = 20;
export const WAKE_EVIDENCE_PER_MOVING_SECOND = 0.3;
export const MAX_MOVEMENT_EVIDENCE = 4;
export const STILL_WINDOW = 5;
export const STILLNESS_EVIDENCE = -0.5;

// ---------------------------------------------------------------------------------------------
// Per-epoch sums, then windowed features

interface EpochSums {
  hrSum: Float64Array;
  hrCount: Float64Array;
  /** Per judged epoch the SD of its 5-s heart-rate means, to average over a window. */
  spreadSum: Float64Array;
  nnSum: Float64Array;
  nnSquares: Float64Array;
  nnCount: Float64Array;
  diffSquares: Float64Array;
  diffCount: Float64Array;
}

function heartRateSums(hr: Float32Array, epochs: number, sums: EpochSums, judged: Uint8Array): void {
  for (let e = 0; e < epochs; e++) {
    let sum = 0;
    let count = 0;
    // Spread from 5-s block means: a bed sensor's second-to-second noise averages out, the
    // swings of breathing events and arousals (tens of seconds) stay.
    let blockSquares = 0;
    let blockSum = 0;
    let blocks = 0;
    for (let block = 0; block < EPOCH_SECONDS / SPREAD_BLOCK; block++) {
      let inBlock = 0;
      let n = 0;
      const from = e * EPOCH_SECONDS + block * SPREAD_BLOCK;
      for (let s = from; s < Math.min(hr.length, from + SPREAD_BLOCK); s++) {
        const bpm = hr[s] ?? Number.NaN;
        if (!(bpm > 0)) continue; // NaN and zero are gaps
        inBlock += bpm;
        n++;
      }
      sum += inBlock;
      count += n;
      if (n * 2 < SPREAD_BLOCK) continue;
      blockSum += inBlock / n;
      blockSquares += (inBlock / n) ** 2;
      blocks++;
    }
    if (count < MIN_SECONDS_PER_EPOCH || blocks < 2) continue;
    judged[e] = 1;
    sums.hrSum[e] = sum / count; // one epoch mean per judged epoch, so windows weigh epochs alike
    sums.hrCount[e] = 1;
    const blockMean = blockSum / blocks;
    sums.spreadSum[e] = Math.sqrt(Math.max(0, blockSquares / blocks - blockMean * blockMean));
  }
}

/** NN intervals: plausible and within 20 % of the plausible interval before; successive
 * differences only between NN beats close in time. */
function beatSums(beats: BeatSeries, epochs: number, sums: EpochSums): void {
  let previousPlausible = Number.NaN;
  let previousNn = Number.NaN;
  let previousNnTime = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < beats.rr.length; i++) {
    const rr = beats.rr[i] ?? Number.NaN;
    const t = beats.t[i] ?? Number.NaN;
    if (!isPlausibleRr(rr) || !(t >= 0)) continue;
    const steady = Math.abs(rr - previousPlausible) <= MAX_NN_STEP * previousPlausible;
    previousPlausible = rr;
    const e = Math.floor(t / EPOCH_SECONDS);
    if (!steady || e >= epochs) continue;
    sums.nnSum[e] = (sums.nnSum[e] ?? 0) + rr;
    sums.nnSquares[e] = (sums.nnSquares[e] ?? 0) + rr * rr;
    sums.nnCount[e] = (sums.nnCount[e] ?? 0) + 1;
    if (t - previousNnTime <= MAX_DIFFERENCE_GAP) {
      sums.diffSquares[e] = (sums.diffSquares[e] ?? 0) + (rr - previousNn) * (rr - previousNn);
      sums.diffCount[e] = (sums.diffCount[e] ?? 0) + 1;
    }
    previousNn = rr;
    previousNnTime = t;
  }
}

/** Prefix sums, so any centred window's total costs two reads. */
function prefix(values: Float64Array): Float64Array {
  const out = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) out[i + 1] = (out[i] ?? 0) + (values[i] ?? 0);
  return out;
}

const windowTotal = (cumulative: Float64Array, e: number, half: number): number => {
  const last = cumulative.length - 1;
  return (cumulative[Math.min(last, e + half + 1)] ?? 0) - (cumulative[Math.max(0, e - half)] ?? 0);
};

/** Value at quantile q (0–1) of sorted values, linearly interpolated. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[Math.min(sorted.length - 1, lo + 1)] ?? a;
  return a + (b - a) * (at - lo);
}

type Reference = 'low' | 'scaled';

/** The column measured against the night's own distribution over judged epochs. */
function normalise(raw: Float64Array, judged: Uint8Array, reference: Reference): Float64Array {
  let n = 0;
  const pool = new Float64Array(raw.length);
  raw.forEach((value, e) => {
    if (judged[e] === 1 && Number.isFinite(value)) pool[n++] = value;
  });
  const sorted = pool.subarray(0, n).sort();
  const low = quantile(sorted, 0.1);
  const range = reference === 'scaled' ? quantile(sorted, 0.9) - low : 1;
  const scale = range > 1e-9 ? range : 1;
  return raw.map((value) => (value - low) / scale);
}

/** Every feature column of a night (exported for the fitting script). */
export function nightFeatures(input: StagingInput): NightFeatures {
  const epochs = Math.ceil(input.hr.length / EPOCH_SECONDS);
  const zeros = (): Float64Array => new Float64Array(epochs);
  const sums: EpochSums = {
    hrSum: zeros(),
    hrCount: zeros(),
    spreadSum: zeros(),
    nnSum: zeros(),
    nnSquares: zeros(),
    nnCount: zeros(),
    diffSquares: zeros(),
    diffCount: zeros(),
  };
  const judged = new Uint8Array(epochs);
  heartRateSums(input.hr, epochs, sums, judged);
  if (input.beats) beatSums(input.beats, epochs, sums);
  const c = {
    hr: prefix(sums.hrSum),
    hrN: prefix(sums.hrCount),
    spread: prefix(sums.spreadSum),
    nn: prefix(sums.nnSum),
    nn2: prefix(sums.nnSquares),
    nnN: prefix(sums.nnCount),
    diff2: prefix(sums.diffSquares),
    diffN: prefix(sums.diffCount),
  };
  const meanOver = (total: Float64Array, count: Float64Array, e: number, half: number): number =>
    windowTotal(total, e, half) / windowTotal(count, e, half); // NaN when the window is empty
  const rmssdOver = (e: number, half: number): number => Math.sqrt(meanOver(c.diff2, c.diffN, e, half));
  const sdnnOver = (e: number, half: number): number => {
    const mean = meanOver(c.nn, c.nnN, e, half);
    return Math.sqrt(Math.max(0, meanOver(c.nn2, c.nnN, e, half) - mean * mean));
  };
  const ratioOver = (e: number, half: number): number =>
    Math.log((sdnnOver(e, half) + RR_FLOOR) / (rmssdOver(e, half) + RR_FLOOR));

  const raw = (feature: (e: number) => number): Float64Array => zeros().map((_, e) => feature(e));
  const withBeats = new Uint8Array(epochs);
  for (let e = 0; e < epochs; e++) {
    withBeats[e] = judged[e] === 1 && windowTotal(c.diffN, e, BEAT_WINDOW) >= MIN_BEAT_DIFFERENCES ? 1 : 0;
  }
  const first = judged.indexOf(1);
  const last = judged.lastIndexOf(1);
  const span = Math.max(1, last - first);
  return {
    epochs,
    judged,
    withBeats,
    columns: {
      hrFastLow: normalise(
        raw((e) => Math.log(meanOver(c.hr, c.hrN, e, FAST_WINDOW))),
        judged,
        'low',
      ),
      hrSlowScaled: normalise(
        raw((e) => Math.log(meanOver(c.hr, c.hrN, e, SLOW_WINDOW))),
        judged,
        'scaled',
      ),
      spreadLow: normalise(
        raw((e) => Math.log(meanOver(c.spread, c.hrN, e, SPREAD_WINDOW) + SPREAD_FLOOR)),
        judged,
        'low',
      ),
      rmssdScaled: normalise(
        raw((e) => Math.log(rmssdOver(e, BEAT_WINDOW) + RR_FLOOR)),
        withBeats,
        'scaled',
      ),
      ratioFastLow: normalise(
        raw((e) => ratioOver(e, BEAT_WINDOW)),
        withBeats,
        'low',
      ),
      position: raw((e) => Math.min(1, Math.max(0, (e - first) / span))),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Stage evidence and the Viterbi pass

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

function logOdds(model: Logistic, columns: NightFeatures['columns'], e: number): number {
  let sum = model.intercept;
  for (const name of FEATURES) {
    const weight = model.weights[name];
    const value = columns[name][e] ?? Number.NaN;
    if (weight !== undefined && Number.isFinite(value)) sum += weight * value; // undefined: at the night's reference
  }
  return sum;
}

const PROBABILITY_FLOOR = 1e-6;

/**
 * Per epoch and stage, the log-evidence the Viterbi pass adds: log P(stage | features) minus
 * the log prior (a posterior divided by its prior is a scaled likelihood), plus the stage bias.
 * Row-major, 4 per epoch; unjudged epochs are 0 (no evidence). Exported for the fitting script.
 */
export function stageEvidence(features: NightFeatures, parameters: StagingParameters = PARAMETERS): Float64Array {
  const evidence = new Float64Array(features.epochs * 4);
  const p = new Float64Array(4);
  for (let e = 0; e < features.epochs; e++) {
    if (features.judged[e] !== 1) continue;
    const model = features.withBeats[e] === 1 ? parameters.beats : parameters.heartRate;
    const wake = sigmoid(logOdds(model.wake, features.columns, e));
    const rem = sigmoid(logOdds(model.rem, features.columns, e));
    const deep = sigmoid(logOdds(model.deep, features.columns, e));
    p[0] = wake;
    p[1] = (1 - wake) * rem;
    p[2] = (1 - wake) * (1 - rem) * (1 - deep);
    p[3] = (1 - wake) * (1 - rem) * deep;
    for (let k = 0; k < 4; k++) {
      evidence[e * 4 + k] =
        Math.log(Math.max(PROBABILITY_FLOOR, p[k] ?? 0)) - (parameters.logPrior[k] ?? 0) + (model.bias[k] ?? 0);
    }
  }
  return evidence;
}

/** Wake evidence from movement per epoch: restless seconds push towards wake, long stillness slightly away. */
export function movementEvidence(move: Float32Array, epochs: number): Float64Array {
  const restless = new Float64Array(epochs);
  const measured = new Float64Array(epochs);
  for (let s = 0; s < Math.min(move.length, epochs * EPOCH_SECONDS); s++) {
    const level = move[s] ?? Number.NaN;
    if (Number.isNaN(level)) continue;
    const e = Math.floor(s / EPOCH_SECONDS);
    measured[e] = (measured[e] ?? 0) + 1;
    if (level >= MOVING_LEVEL) restless[e] = (restless[e] ?? 0) + 1;
  }
  const restlessTotal = prefix(restless);
  const measuredTotal = prefix(measured);
  const evidence = new Float64Array(epochs);
  for (let e = 0; e < epochs; e++) {
    if ((measured[e] ?? 0) < MIN_SECONDS_PER_EPOCH) continue;
    const moving = restless[e] ?? 0;
    const still =
      windowTotal(restlessTotal, e, STILL_WINDOW) === 0 &&
      windowTotal(measuredTotal, e, STILL_WINDOW) >= (2 * STILL_WINDOW + 1) * MIN_SECONDS_PER_EPOCH;
    evidence[e] =
      moving > 0
        ? Math.min(MAX_MOVEMENT_EVIDENCE, WAKE_EVIDENCE_PER_MOVING_SECOND * moving)
        : still
          ? STILLNESS_EVIDENCE
          : 0;
  }
  return evidence;
}

/** The likeliest stage sequence (Viterbi) given per-epoch evidence; unjudged epochs come out UNKNOWN. */
export function likeliestStages(
  evidence: Float64Array,
  judged: Uint8Array,
  parameters: StagingParameters = PARAMETERS,
): Uint8Array {
  const epochs = judged.length;
  const stages = new Uint8Array(epochs).fill(UNKNOWN);
  if (epochs === 0) return stages;
  const from = new Uint8Array(epochs * 4);
  let score = new Float64Array(4);
  let next = new Float64Array(4);
  for (let k = 0; k < 4; k++) score[k] = (parameters.logPrior[k] ?? 0) + (evidence[k] ?? 0);
  for (let e = 1; e < epochs; e++) {
    for (let to = 0; to < 4; to++) {
      let best = Number.NEGATIVE_INFINITY;
      let arg = 0;
      for (let k = 0; k < 4; k++) {
        const candidate = (score[k] ?? 0) + (parameters.logTransition[k * 4 + to] ?? 0);
        if (candidate > best) {
          best = candidate;
          arg = k;
        }
      }
      next[to] = best + (evidence[e * 4 + to] ?? 0);
      from[e * 4 + to] = arg;
    }
    [score, next] = [next, score];
  }
  let state = 0;
  for (let k = 1; k < 4; k++) if ((score[k] ?? 0) > (score[state] ?? 0)) state = k;
  for (let e = epochs - 1; e >= 0; e--) {
    if (judged[e] === 1) stages[e] = state;
    state = from[e * 4 + state] ?? 0;
  }
  return stages;
}

/** One entry per 30-s epoch from second 0 (length ceil(hr.length / 30)): Stage.wake / rem / light / deep, or UNKNOWN (255) where there is no signal. */
export function stageSleep(input: {
  hr: Float32Array; // 1 Hz from second 0, NaN in gaps
  beats?: BeatSeries | undefined; // absent on many bed sensors
  move?: Float32Array | undefined; // 1 Hz body movement 0–100 from the bed sensor, NaN in gaps; absent in the datasets
}): Uint8Array {
  const features = nightFeatures(input);
  let judgedEpochs = 0;
  for (const flag of features.judged) judgedEpochs += flag;
  if (judgedEpochs < MIN_NIGHT_EPOCHS) return new Uint8Array(features.epochs).fill(UNKNOWN);
  const evidence = stageEvidence(features);
  if (input.move) {
    const moving = movementEvidence(input.move, features.epochs);
    for (let e = 0; e < features.epochs; e++) {
      if (features.judged[e] === 1) evidence[e * 4] = (evidence[e * 4] ?? 0) + (moving[e] ?? 0);
    }
  }
  return likeliestStages(evidence, features.judged);
}
