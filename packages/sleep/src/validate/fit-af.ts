/**
 * Fits the AF detector of ../af.ts and reports how it measures:
 *
 *   npx tsx packages/sleep/src/validate/fit-af.ts /work/shared/datasets
 *
 * 1. For a small grid of shapes (window × bin width × smoothing) the smoothed ΔRR entropy of
 *    every minute of every rhythm record; the shape and threshold with the best balanced
 *    accuracy ((Se + Sp) / 2, pooled minutes) are the constants to copy into af.ts.
 * 2. Leave-one-subject-out: shape and threshold chosen again without each subject, applied to it.
 * 3. The shipped `detectAf`: pooled and per-record figures, burden against `af_fraction`, time.
 * 4. Robustness of `detectAf` to interval jitter, dropouts and missed beats.
 * Deterministic: the perturbations use a seeded generator.
 */
import { AF_SHAPE, AF_THRESHOLD_BITS, detectAf, minuteEntropy, smoothMinutes, type AfShape } from '../af.ts';
import { UNKNOWN, type BeatSeries } from '../series.ts';
import { Confusion } from './agreement.ts';
import { findDatasets, readRecord } from './datasets.ts';
import { seeded } from './seeded.ts';
import { minuteRhythms } from './labels.ts';

const WINDOWS_SECONDS = [90, 120, 180];
const BIN_WIDTHS = [0.04, 0.05, 0.06];
const SMOOTHING_MINUTES = [1, 2, 3];
const BINS = 16;

interface Night {
  name: string;
  subject: string;
  duration: number;
  beats: BeatSeries;
  /** Per minute 1 AF, 0 other rhythm, UNKNOWN not scored. */
  truth: Uint8Array;
  referenceBurden: number | null;
}

const print = (line = ''): void => void process.stdout.write(`${line}\n`);
const pct = (value: number): string => (Number.isNaN(value) ? '—' : `${(100 * value).toFixed(1)}%`);

function loadNights(root: string): Night[] {
  const nights: Night[] = [];
  for (const folder of findDatasets(root).filter((found) => found.kind === 'rhythm')) {
    for (const name of folder.records) {
      const record = readRecord(folder, name);
      if (record.kind !== 'rhythm') continue;
      const reference = Number(record.reference['af_fraction']);
      nights.push({
        name,
        subject: `${folder.database}/${record.reference['subject'] || name}`,
        duration: record.duration,
        beats: record.beats,
        truth: minuteRhythms(record.runs, Math.ceil(record.duration / 60)),
        referenceBurden: record.reference['af_fraction'] && Number.isFinite(reference) ? reference : null,
      });
    }
  }
  return nights;
}

// ---- 1. shape grid and threshold -------------------------------------------------------------

const shapes: AfShape[] = WINDOWS_SECONDS.flatMap((windowSeconds) =>
  BIN_WIDTHS.flatMap((binWidth) =>
    SMOOTHING_MINUTES.map((smoothMinutes) => ({ windowSeconds, binWidth, bins: BINS, smoothMinutes })),
  ),
);

/** scores[shape][night]: smoothed entropy per minute (NaN where not judged). */
function scoreAllShapes(nights: Night[]): Float64Array[][] {
  const raw = new Map<string, Float64Array[]>();
  return shapes.map((shape) => {
    const key = `${shape.windowSeconds}/${shape.binWidth}`;
    const entropies = raw.get(key) ?? nights.map((night) => minuteEntropy(night.beats, night.duration, shape));
    raw.set(key, entropies);
    return entropies.map((entropy) => smoothMinutes(entropy, shape.smoothMinutes));
  });
}

/** Seconds of beats that can sway one minute's answer: its window plus the smoothing either side. */
const spanSeconds = (shape: AfShape): number => shape.windowSeconds + 2 * 60 * shape.smoothMinutes;

interface Fit {
  threshold: number;
  balancedAccuracy: number;
}

/** The threshold with the best balanced accuracy over the judged, scored minutes of `nights`. */
function fitThreshold(scores: Float64Array[], nights: Night[], indices: number[]): Fit {
  const pairs: [number, number][] = [];
  for (const j of indices) {
    const truth = nights[j]?.truth ?? new Uint8Array();
    scores[j]?.forEach((bits, m) => {
      if (!Number.isNaN(bits) && truth[m] !== UNKNOWN) pairs.push([bits, truth[m] ?? 0]);
    });
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const positives = pairs.filter(([, truth]) => truth === 1).length;
  const negatives = pairs.length - positives;
  // Sweep upwards: below the cut everything is called non-AF.
  let best: Fit = { threshold: -Infinity, balancedAccuracy: 0.5 };
  let negativesBelow = 0;
  let positivesBelow = 0;
  for (let k = 0; k < pairs.length; k++) {
    const [bits, truth] = pairs[k] ?? [0, 0];
    if (truth === 1) positivesBelow++;
    else negativesBelow++;
    const next = pairs[k + 1]?.[0];
    if (next === bits) continue;
    const balancedAccuracy = (negativesBelow / negatives + (positives - positivesBelow) / positives) / 2;
    if (balancedAccuracy > best.balancedAccuracy) {
      best = { threshold: next === undefined ? bits : (bits + next) / 2, balancedAccuracy };
    }
  }
  return best;
}

interface Choice extends Fit {
  shape: number;
}

/** Shapes this close to the best balanced accuracy count as equal: the shortest span wins, as it blurs short episodes least. */
const EQUAL_WITHIN = 0.0025;

function chooseShape(allScores: Float64Array[][], nights: Night[], indices: number[]): Choice {
  const fits = allScores.map((scores, shape) => ({ shape, ...fitThreshold(scores, nights, indices) }));
  const best = Math.max(...fits.map((fit) => fit.balancedAccuracy));
  const span = (fit: Choice): number => spanSeconds(shapes[fit.shape] ?? AF_SHAPE);
  return fits
    .filter((fit) => fit.balancedAccuracy >= best - EQUAL_WITHIN)
    .reduce((chosen, fit) =>
      span(fit) < span(chosen) || (span(fit) === span(chosen) && fit.balancedAccuracy > chosen.balancedAccuracy)
        ? fit
        : chosen,
    );
}

/** Adds the scored minutes of one night to `confusion`; returns how many of them were not judged. */
function scoreNight(answers: ArrayLike<number>, truth: Uint8Array, confusion: Confusion): number {
  let unknown = 0;
  truth.forEach((expected, m) => {
    if (expected === UNKNOWN) return;
    const answer = answers[m] ?? UNKNOWN;
    if (answer === UNKNOWN) unknown++;
    else confusion.add(expected, answer);
  });
  return unknown;
}

const threshold = (scores: Float64Array, bits: number): Uint8Array =>
  Uint8Array.from(scores, (value) => (Number.isNaN(value) ? UNKNOWN : value > bits ? 1 : 0));

const describeShape = (shape: AfShape): string =>
  `window ${shape.windowSeconds} s, bin ${shape.binWidth} × mean RR, ${shape.bins} bins, smoothing ±${shape.smoothMinutes} min`;

function figures(confusion: Confusion, unknown: number): string {
  const judgedShare = unknown / (confusion.total + unknown);
  return `Se ${pct(confusion.sensitivity())}  Sp ${pct(confusion.specificity())}  accuracy ${pct(confusion.accuracy())}  not judged ${pct(judgedShare)} of scored minutes`;
}

function fitAndCrossValidate(nights: Night[]): void {
  const allScores = scoreAllShapes(nights);
  const everyone = nights.map((_, j) => j);
  const chosen = chooseShape(allScores, nights, everyone);
  const shape = shapes[chosen.shape] ?? AF_SHAPE;
  print(`## Fit on all ${nights.length} records (${shapes.length} shapes searched)`);
  print('shape  window  bin    smoothing  span   balanced accuracy  threshold');
  allScores.forEach((scores, k) => {
    const fit = fitThreshold(scores, nights, everyone);
    const candidate = shapes[k] ?? AF_SHAPE;
    print(
      `${String(k).padStart(5)}  ${String(candidate.windowSeconds).padStart(6)}  ${candidate.binWidth.toFixed(2)}   ±${candidate.smoothMinutes} min     ` +
        `${String(spanSeconds(candidate)).padStart(4)}   ${(100 * fit.balancedAccuracy).toFixed(2).padStart(16)}%  ${fit.threshold.toFixed(3)}`,
    );
  });
  print(`chosen: ${describeShape(shape)}; threshold ${chosen.threshold.toFixed(3)} bits`);
  print(`copy into af.ts: AF_SHAPE = ${JSON.stringify(shape)}, AF_THRESHOLD_BITS = ${chosen.threshold.toFixed(2)}`);
  const inSample = new Confusion(2);
  let unknown = 0;
  nights.forEach((night, j) => {
    const scores = allScores[chosen.shape]?.[j] ?? new Float64Array();
    unknown += scoreNight(threshold(scores, chosen.threshold), night.truth, inSample);
  });
  print(`in-sample: ${figures(inSample, unknown)}`);

  for (const refitShape of [true, false]) {
    const pooled = new Confusion(2);
    let heldOutUnknown = 0;
    const picks: string[] = [];
    for (const subject of new Set(nights.map((night) => night.subject))) {
      const training = everyone.filter((j) => nights[j]?.subject !== subject);
      const fold = refitShape
        ? chooseShape(allScores, nights, training)
        : { shape: chosen.shape, ...fitThreshold(allScores[chosen.shape] ?? [], nights, training) };
      picks.push(`${fold.shape}:${fold.threshold.toFixed(2)}`);
      everyone
        .filter((j) => nights[j]?.subject === subject)
        .forEach((j) => {
          const scores = allScores[fold.shape]?.[j] ?? new Float64Array();
          heldOutUnknown += scoreNight(threshold(scores, fold.threshold), nights[j]?.truth ?? new Uint8Array(), pooled);
        });
    }
    const what = refitShape ? 'shape and threshold chosen per fold' : 'shape fixed, threshold refitted per fold';
    print(`leave-one-subject-out (${what}): ${figures(pooled, heldOutUnknown)}`);
    print(`  distinct fold picks (shape:threshold): ${[...new Set(picks)].join(' ')}`);
  }
}

// ---- 3. the shipped detector -----------------------------------------------------------------

function timeDetector(night: Night): number {
  detectAf(night.beats, night.duration);
  const started = performance.now();
  const runs = 5;
  for (let k = 0; k < runs; k++) detectAf(night.beats, night.duration);
  return (performance.now() - started) / runs;
}

function reportShipped(nights: Night[]): void {
  print(`\n## Shipped detectAf (${describeShape(AF_SHAPE)}; threshold ${AF_THRESHOLD_BITS} bits)`);
  print('record  scored  AF min  Se      Sp      not judged  burden  af_fraction  ms');
  const pooled = new Confusion(2);
  let unknown = 0;
  let milliseconds = 0;
  let seconds = 0;
  for (const night of nights) {
    const result = detectAf(night.beats, night.duration);
    const confusion = new Confusion(2);
    const notJudged = scoreNight(result.minutes, night.truth, confusion);
    pooled.merge(confusion);
    unknown += notJudged;
    const ms = timeDetector(night);
    milliseconds += ms;
    seconds += night.duration;
    const afMinutes = confusion.cell(1, 0) + confusion.cell(1, 1);
    const burden = result.burden === null ? '—' : pct(result.burden);
    const reference = night.referenceBurden === null ? '—' : pct(night.referenceBurden);
    print(
      `${night.name.padEnd(7)} ${String(confusion.total + notJudged).padStart(6)}  ${String(afMinutes).padStart(6)}  ` +
        `${pct(confusion.sensitivity()).padEnd(6)}  ${pct(confusion.specificity()).padEnd(6)}  ` +
        `${pct(notJudged / Math.max(1, confusion.total + notJudged)).padStart(10)}  ${burden.padStart(6)}  ${reference.padStart(11)}  ${ms.toFixed(1)}`,
    );
  }
  print(`pooled: ${figures(pooled, unknown)}`);
  print(
    `time: ${milliseconds.toFixed(0)} ms for ${(seconds / 3600).toFixed(0)} h, ${((milliseconds * 8 * 3600) / seconds).toFixed(2)} ms per 8-hour night`,
  );
}

// ---- 4. robustness ---------------------------------------------------------------------------

/** Each interval moved by up to ±`ms` (uniform), as a bed sensor's beat timing would. */
function jitter(beats: BeatSeries, ms: number, random: () => number): BeatSeries {
  return { t: beats.t, rr: beats.rr.map((rr) => rr + (2 * random() - 1) * ms) };
}

/** `share` of the night removed in chunks of 1–5 minutes; the chunks are returned to check the gaps. */
function dropOut(night: Night, share: number, random: () => number): { beats: BeatSeries; gaps: [number, number][] } {
  const gaps: [number, number][] = [];
  let removed = 0;
  while (removed < share * night.duration) {
    const length = 60 + random() * 240;
    const start = random() * (night.duration - length);
    gaps.push([start, start + length]);
    removed += length;
  }
  const removedSecond = new Uint8Array(Math.ceil(night.duration) + 1);
  for (const [start, end] of gaps) removedSecond.fill(1, Math.floor(start), Math.ceil(end));
  const kept: number[] = [];
  night.beats.t.forEach((time, i) => {
    if (removedSecond[Math.floor(time)] !== 1) kept.push(i);
  });
  return {
    beats: {
      t: Float64Array.from(kept, (i) => night.beats.t[i] ?? 0),
      rr: Float32Array.from(kept, (i) => night.beats.rr[i] ?? 0),
    },
    gaps,
  };
}

/** `share` of beats not detected: the next beat's interval then spans both. */
function missBeats(beats: BeatSeries, share: number, random: () => number): BeatSeries {
  const t: number[] = [];
  const rr: number[] = [];
  let carried = 0;
  beats.t.forEach((time, i) => {
    const interval = (beats.rr[i] ?? Number.NaN) + carried;
    if (i > 0 && random() < share) {
      carried = interval;
      return;
    }
    carried = 0;
    t.push(time);
    rr.push(interval);
  });
  return { t: Float64Array.from(t), rr: Float32Array.from(rr) };
}

interface Perturbation {
  label: string;
  apply: (night: Night, random: () => number) => { beats: BeatSeries; gaps: [number, number][] };
}

const perturbations: Perturbation[] = [
  { label: 'clean', apply: (night) => ({ beats: night.beats, gaps: [] }) },
  { label: 'jitter ±20 ms', apply: (night, random) => ({ beats: jitter(night.beats, 20, random), gaps: [] }) },
  { label: 'jitter ±40 ms', apply: (night, random) => ({ beats: jitter(night.beats, 40, random), gaps: [] }) },
  { label: '10% dropped (1–5 min)', apply: (night, random) => dropOut(night, 0.1, random) },
  { label: '2% beats missed', apply: (night, random) => ({ beats: missBeats(night.beats, 0.02, random), gaps: [] }) },
  {
    label: 'jitter ±30 ms + 10% dropped',
    apply: (night, random) => {
      const dropped = dropOut(night, 0.1, random);
      return { beats: jitter(dropped.beats, 30, random), gaps: dropped.gaps };
    },
  },
];

/** Minutes lying wholly inside a removed chunk that still got an answer (must be none). */
function answersInGaps(minutes: Uint8Array, gaps: [number, number][]): number {
  let invented = 0;
  minutes.forEach((answer, m) => {
    const inside = gaps.some(([start, end]) => m * 60 >= start && (m + 1) * 60 <= end);
    if (inside && answer !== UNKNOWN) invented++;
  });
  return invented;
}

function reportRobustness(nights: Night[]): void {
  print('\n## Robustness of detectAf (seeded perturbations, pooled over records)');
  for (const perturbation of perturbations) {
    const random = seeded(20_240_611);
    const pooled = new Confusion(2);
    let unknown = 0;
    let invented = 0;
    for (const night of nights) {
      const { beats, gaps } = perturbation.apply(night, random);
      const result = detectAf(beats, night.duration);
      unknown += scoreNight(result.minutes, night.truth, pooled);
      invented += answersInGaps(result.minutes, gaps);
    }
    print(`${perturbation.label.padEnd(28)} ${figures(pooled, unknown)}  answers inside gaps: ${invented}`);
  }
}

const root = process.argv[2];
if (!root) {
  process.stderr.write(
    'usage: npx tsx packages/sleep/src/validate/fit-af.ts <datasets folder, e.g. /work/shared/datasets>\n',
  );
  process.exit(2);
}
const nights = loadNights(root);
if (nights.length === 0) {
  process.stderr.write(`No rhythm-labelled database (ltafdb layout) found under ${root}.\n`);
  process.exit(2);
}
fitAndCrossValidate(nights);
reportShipped(nights);
reportRobustness(nights);
