/**
 * Fits the sleep-staging coefficients and measures them honestly.
 *
 *   npx tsx packages/sleep/src/validate/fit-staging.ts /work/shared/datasets
 *
 * 1. Features of every 30-s epoch of the slpdb records (`nightFeatures`, the detector's own code),
 *    once with beats and once from heart rate alone.
 * 2. Per model (beats / heart rate only) three logistic regressions on the expert's epochs:
 *    wake vs sleep; REM vs non-REM among sleep; deep vs light among non-REM. The stage shares
 *    and transition odds are counted from the hypnograms; the stage biases (REM, light, deep
 *    against wake) are chosen on a grid for the best pooled kappa after the Viterbi pass, on the
 *    training nights only, among biases that call every stage at least 70 % as often as it is true.
 * 3. Prints the constants to paste into `staging.ts`, then the figures in-sample and
 *    leave-one-subject-out (every step of 2 redone without the subject's nights).
 * 4. With the constants now in `staging.ts`: the figures under added noise and dropouts, and
 *    the time per 8-hour night.
 */
import path from 'node:path';
import { EPOCH_SECONDS, Stage, UNKNOWN, type BeatSeries } from '../series.ts';
import {
  likeliestStages,
  nightFeatures,
  PARAMETERS,
  stageEvidence,
  stageSleep,
  type FeatureName,
  type Logistic,
  type NightFeatures,
  type StageModel,
  type StagingParameters,
} from '../staging.ts';
import { Confusion } from './agreement.ts';
import { findDatasets, readRecord, type StagingRecord } from './datasets.ts';
import { seeded as random } from './seeded.ts';
import { STAGE_BY_LABEL } from './labels.ts';

const print = (text = ''): void => void process.stdout.write(`${text}\n`);

/** The columns each question reads: physiology first (see staging.ts), then compared on these
 * 10 subjects with neighbouring windows and normalisations (so the leave-one-subject-out figures
 * below still flatter a little: the choice itself saw every subject). */
const BEAT_COLUMNS: Record<Question, FeatureName[]> = {
  wake: ['rmssdScaled', 'hrFastLow', 'position'],
  rem: ['ratioFastLow', 'hrSlowScaled', 'position'],
  deep: ['spreadLow'],
};
const HR_COLUMNS: Record<Question, FeatureName[]> = {
  wake: ['hrFastLow', 'spreadLow', 'position'],
  rem: ['hrSlowScaled', 'spreadLow', 'position'],
  deep: ['spreadLow'],
};
/** L2 penalty on standardised weights (a light touch: few features, thousands of epochs). */
const RIDGE = 1;
/** Candidate biases for REM, light and deep (wake is the reference at 0). */
const BIAS_GRID = Array.from({ length: 17 }, (_, i) => -2.5 + 0.25 * i);

type Question = 'wake' | 'rem' | 'deep';
const QUESTIONS: Question[] = ['wake', 'rem', 'deep'];

interface Night {
  name: string;
  subject: string;
  hr: Float32Array;
  beats: BeatSeries;
  /** Expert stage per epoch, -1 where not scored (MT, before the first label). */
  truth: Int8Array;
  withBeats: NightFeatures;
  heartRateOnly: NightFeatures;
}

function truthOf(record: StagingRecord, epochs: number): Int8Array {
  const truth = new Int8Array(epochs).fill(-1);
  for (const epoch of record.epochs) {
    const stage = STAGE_BY_LABEL[epoch.stage];
    const e = Math.round(epoch.t / EPOCH_SECONDS);
    if (stage !== undefined && e >= 0 && e < epochs) truth[e] = stage;
  }
  return truth;
}

function loadNights(root: string): Night[] {
  const folder = findDatasets(root).find((d) => d.kind === 'staging');
  if (!folder) throw new Error(`no staging database (slpdb) under ${root}`);
  return folder.records.map((name) => {
    const record = readRecord(folder, name) as StagingRecord;
    const withBeats = nightFeatures({ hr: record.hr, beats: record.beats });
    return {
      name,
      subject: record.reference['subject'] || name,
      hr: record.hr,
      beats: record.beats,
      truth: truthOf(record, withBeats.epochs),
      withBeats,
      heartRateOnly: nightFeatures({ hr: record.hr }),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Logistic regression (Newton's method on standardised columns, weights folded back)

function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let k = col; k <= n; k++) a[r]![k]! -= f * a[col]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

function fitLogistic(rows: number[][], targets: number[], names: FeatureName[]): Logistic {
  const d = names.length;
  const mean = names.map((_, j) => rows.reduce((s, r) => s + r[j]!, 0) / rows.length);
  const scale = names.map(
    (_, j) => Math.sqrt(rows.reduce((s, r) => s + (r[j]! - mean[j]!) ** 2, 0) / rows.length) || 1,
  );
  const x = rows.map((r) => [...r.map((v, j) => (v - mean[j]!) / scale[j]!), 1]);
  let w = new Array<number>(d + 1).fill(0);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Array<number>(d + 1).fill(0);
    const hessian = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    x.forEach((xi, i) => {
      const p = 1 / (1 + Math.exp(-xi.reduce((s, v, j) => s + v * w[j]!, 0)));
      const h = p * (1 - p);
      for (let j = 0; j <= d; j++) {
        gradient[j]! += (p - targets[i]!) * xi[j]!;
        for (let k = 0; k <= d; k++) hessian[j]![k]! += h * xi[j]! * xi[k]!;
      }
    });
    for (let j = 0; j < d; j++) {
      gradient[j]! += RIDGE * w[j]!;
      hessian[j]![j]! += RIDGE;
    }
    const step = solve(hessian, gradient);
    w = w.map((v, j) => v - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  const weights: Partial<Record<FeatureName, number>> = {};
  let intercept = w[d]!;
  names.forEach((name, j) => {
    weights[name] = w[j]! / scale[j]!;
    intercept -= (w[j]! * mean[j]!) / scale[j]!;
  });
  return { intercept, weights };
}

const asks: Record<Question, (stage: number) => boolean> = {
  wake: () => true,
  rem: (stage) => stage !== Stage.wake,
  deep: (stage) => stage === Stage.light || stage === Stage.deep,
};
const yes: Record<Question, number> = { wake: Stage.wake, rem: Stage.rem, deep: Stage.deep };

function fitQuestion(nights: Night[], question: Question, names: FeatureName[], beats: boolean): Logistic {
  const rows: number[][] = [];
  const targets: number[] = [];
  for (const night of nights) {
    const features = beats ? night.withBeats : night.heartRateOnly;
    night.truth.forEach((stage, e) => {
      if (stage < 0 || features.judged[e] !== 1 || (beats && features.withBeats[e] !== 1)) return;
      if (!asks[question](stage)) return;
      const row = names.map((name) => features.columns[name][e] ?? Number.NaN);
      if (row.every(Number.isFinite)) {
        rows.push(row);
        targets.push(stage === yes[question] ? 1 : 0);
      }
    });
  }
  return fitLogistic(rows, targets, names);
}

// ---------------------------------------------------------------------------------------------
// Stage shares, transitions, biases

function countStages(nights: Night[]): { logPrior: number[]; logTransition: number[] } {
  const shares = [1, 1, 1, 1];
  const moves = new Array<number>(16).fill(1); // add-one: no transition is impossible
  for (const night of nights) {
    night.truth.forEach((stage, e) => {
      if (stage < 0) return;
      shares[stage]!++;
      const next = night.truth[e + 1] ?? -1;
      if (next >= 0) moves[stage * 4 + next]!++;
    });
  }
  const total = shares.reduce((a, b) => a + b, 0);
  const logTransition = moves.map((count, i) => {
    const from = Math.floor(i / 4);
    const row = moves.slice(from * 4, from * 4 + 4).reduce((a, b) => a + b, 0);
    return Math.log(count / row);
  });
  return { logPrior: shares.map((n) => Math.log(n / total)), logTransition };
}

/** Adds a night's scored epochs to a confusion matrix the way evaluate.ts does (UNKNOWN → wake). */
function score(confusion: Confusion, truth: Int8Array, hypnogram: Uint8Array): void {
  truth.forEach((stage, e) => {
    if (stage < 0) return;
    const predicted = hypnogram[e] ?? UNKNOWN;
    confusion.add(stage, predicted === UNKNOWN ? Stage.wake : predicted);
  });
}

/** Kappa alone would drop a stage it cannot find (REM, here); the report needs every stage, so a
 * bias is acceptable only if each stage is called at least MIN_SHARE_KEPT of as often as it is true. */
const MIN_SHARE_KEPT = 0.7;
function sharesKept(confusion: Confusion): boolean {
  for (let k = 0; k < 4; k++) {
    let truth = 0;
    let called = 0;
    for (let j = 0; j < 4; j++) {
      truth += confusion.cell(k, j);
      called += confusion.cell(j, k);
    }
    if (called < MIN_SHARE_KEPT * truth) return false;
  }
  return true;
}

function withBias(model: StageModel, bias: readonly [number, number, number, number]): StageModel {
  return { ...model, bias };
}

/** The stage biases with the best pooled kappa on these nights (the Viterbi pass included). The
 * evidence is computed once without bias; a bias only adds a constant per stage to judged epochs. */
function chooseBias(nights: Night[], parameters: StagingParameters, beats: boolean): StagingParameters {
  const key = beats ? 'beats' : 'heartRate';
  const unbiased = { ...parameters, [key]: withBias(parameters[key], [0, 0, 0, 0]) };
  const prepared = nights.map((night) => {
    const features = beats ? night.withBeats : night.heartRateOnly;
    // Epochs the other model answers (no beats around them) keep that model's own bias.
    const ours = features.judged.map((j, e) => (j === 1 && (features.withBeats[e] === 1) === beats ? 1 : 0));
    return {
      night,
      features,
      ours,
      evidence: stageEvidence(features, unbiased),
      scratch: new Float64Array(features.epochs * 4),
    };
  });
  let best = { kappa: Number.NEGATIVE_INFINITY, bias: [0, 0, 0, 0] as [number, number, number, number] };
  for (const rem of BIAS_GRID) {
    for (const light of BIAS_GRID) {
      for (const deep of BIAS_GRID) {
        const bias: [number, number, number, number] = [0, rem, light, deep];
        const confusion = new Confusion(4);
        for (const { night, features, ours, evidence, scratch } of prepared) {
          for (let i = 0; i < scratch.length; i++) scratch[i] = evidence[i]! + (ours[i >> 2] === 1 ? bias[i & 3]! : 0);
          score(confusion, night.truth, likeliestStages(scratch, features.judged, parameters));
        }
        const kappa = confusion.kappa();
        if (kappa > best.kappa && sharesKept(confusion)) best = { kappa, bias };
      }
    }
  }
  return { ...parameters, [key]: withBias(parameters[key], best.bias) };
}

function fitModel(nights: Night[], columns: Record<Question, FeatureName[]>, beats: boolean): StageModel {
  const [wake, rem, deep] = QUESTIONS.map((q) => fitQuestion(nights, q, columns[q], beats)) as [
    Logistic,
    Logistic,
    Logistic,
  ];
  return { wake, rem, deep, bias: [0, 0, 0, 0] };
}

function fitParameters(nights: Night[]): StagingParameters {
  const counted = countStages(nights);
  let parameters: StagingParameters = {
    beats: fitModel(nights, BEAT_COLUMNS, true),
    heartRate: fitModel(nights, HR_COLUMNS, false),
    ...counted,
  };
  parameters = chooseBias(nights, parameters, true);
  return chooseBias(nights, parameters, false);
}

// ---------------------------------------------------------------------------------------------
// Figures

interface Figures {
  beats: Confusion;
  heartRate: Confusion;
}

function evaluate(nights: Night[], parameters: StagingParameters): Figures {
  const figures = { beats: new Confusion(4), heartRate: new Confusion(4) };
  for (const night of nights) {
    for (const [key, features] of [
      ['beats', night.withBeats],
      ['heartRate', night.heartRateOnly],
    ] as const) {
      score(
        figures[key],
        night.truth,
        likeliestStages(stageEvidence(features, parameters), features.judged, parameters),
      );
    }
  }
  return figures;
}

/** Parameters fitted without each subject's nights, by subject. */
function foldParameters(nights: Night[]): Map<string, StagingParameters> {
  const folds = new Map<string, StagingParameters>();
  for (const subject of new Set(nights.map((n) => n.subject))) {
    folds.set(subject, fitParameters(nights.filter((n) => n.subject !== subject)));
  }
  return folds;
}

function leaveOneSubjectOut(
  nights: Night[],
  folds: Map<string, StagingParameters>,
): { figures: Figures; perNight: Map<string, Figures> } {
  const figures = { beats: new Confusion(4), heartRate: new Confusion(4) };
  const perNight = new Map<string, Figures>();
  for (const night of nights) {
    const own = evaluate([night], folds.get(night.subject)!);
    perNight.set(night.name, own);
    figures.beats.merge(own.beats);
    figures.heartRate.merge(own.heartRate);
  }
  return { figures, perNight };
}

const f3 = (x: number): string => x.toFixed(3);
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const describe = (c: Confusion): string => `κ ${f3(c.kappa())}  accuracy ${pct(c.accuracy())}`;

function printConfusion(c: Confusion): void {
  const names = ['wake', 'REM', 'light', 'deep'];
  print(`    truth \\ called   ${names.map((n) => n.padStart(6)).join('')}   recall`);
  names.forEach((name, t) => {
    const row = [0, 1, 2, 3].map((p) => c.cell(t, p));
    const total = row.reduce((a, b) => a + b, 0);
    print(
      `    ${name.padEnd(16)} ${row.map((v) => String(v).padStart(6)).join('')}   ${pct(row[t]! / Math.max(1, total))}`,
    );
  });
}

const round = (x: number, digits = 4): number => Number(x.toFixed(digits));
function logisticSource(model: Logistic): string {
  const weights = Object.entries(model.weights)
    .map(([k, v]) => `${k}: ${round(v ?? 0)}`)
    .join(', ');
  return `{ intercept: ${round(model.intercept)}, weights: { ${weights} } }`;
}
function modelSource(model: StageModel): string {
  return `{
    wake: ${logisticSource(model.wake)},
    rem: ${logisticSource(model.rem)},
    deep: ${logisticSource(model.deep)},
    bias: [${model.bias.join(', ')}],
  }`;
}
function parametersSource(p: StagingParameters): string {
  return `export const PARAMETERS: StagingParameters = {
  beats: ${modelSource(p.beats)},
  heartRate: ${modelSource(p.heartRate)},
  logPrior: [${p.logPrior.map((v) => round(v)).join(', ')}],
  logTransition: [${p.logTransition.map((v) => round(v)).join(', ')}],
};`;
}

// ---------------------------------------------------------------------------------------------
// Robustness: the constants in staging.ts on degraded copies of the nights

interface Degradation {
  label: string;
  rrJitterMs?: number;
  hrNoiseBpm?: number;
  dropoutShare?: number;
  noBeats?: boolean;
}

function degrade(night: Night, how: Degradation, seed: number): { hr: Float32Array; beats?: BeatSeries } {
  const next = random(seed);
  const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const hr = Float32Array.from(night.hr, (v) => v + (how.hrNoiseBpm ? how.hrNoiseBpm * gaussian() : 0));
  const dropped = new Uint8Array(hr.length);
  if (how.dropoutShare) {
    // 1–5 minute chunks until the share of the night is gone.
    let removed = 0;
    while (removed < how.dropoutShare * hr.length) {
      const length = 60 + Math.floor(next() * 241);
      const start = Math.floor(next() * Math.max(1, hr.length - length));
      for (let s = start; s < start + length && s < hr.length; s++) {
        if (!dropped[s]) removed++;
        dropped[s] = 1;
        hr[s] = Number.NaN;
      }
    }
  }
  if (how.noBeats) return { hr };
  const keep: number[] = [];
  night.beats.t.forEach((t, i) => {
    if (!dropped[Math.floor(t)]) keep.push(i);
  });
  const jitter = how.rrJitterMs ?? 0;
  return {
    hr,
    beats: {
      t: Float64Array.from(keep, (i) => night.beats.t[i]!),
      rr: Float32Array.from(keep, (i) => night.beats.rr[i]! + (jitter ? jitter * (2 * next() - 1) : 0)),
    },
  };
}

const DEGRADATIONS: Degradation[] = [
  { label: 'as recorded' },
  { label: 'intervals ±20 ms (uniform)', rrJitterMs: 20 },
  { label: 'intervals ±40 ms (uniform)', rrJitterMs: 40 },
  { label: 'heart rate + 2 bpm noise (SD)', hrNoiseBpm: 2 },
  { label: '10% of the night dropped, 1–5 min chunks', dropoutShare: 0.1 },
  { label: '±30 ms + 2 bpm + 10% dropped', rrJitterMs: 30, hrNoiseBpm: 2, dropoutShare: 0.1 },
  { label: 'no beats (heart rate only)', noBeats: true },
  { label: 'no beats, 2 bpm noise, 10% dropped', noBeats: true, hrNoiseBpm: 2, dropoutShare: 0.1 },
];

/** Like `score`, but only the epochs the detector judged: how good the answers it gives are. */
function scoreJudged(confusion: Confusion, truth: Int8Array, hypnogram: Uint8Array): void {
  truth.forEach((stage, e) => {
    const predicted = hypnogram[e] ?? UNKNOWN;
    if (stage >= 0 && predicted !== UNKNOWN) confusion.add(stage, predicted);
  });
}

function robustness(nights: Night[]): void {
  print('\nRobustness (constants as now in staging.ts, stageSleep on degraded copies, in-sample;');
  print('  then over the epochs it judged only, and the share of scored epochs it left UNKNOWN):');
  for (const how of DEGRADATIONS) {
    const confusion = new Confusion(4);
    const judged = new Confusion(4);
    nights.forEach((night, i) => {
      const hypnogram = stageSleep(degrade(night, how, 1000 + i));
      score(confusion, night.truth, hypnogram);
      scoreJudged(judged, night.truth, hypnogram);
    });
    const unknown = 1 - judged.total / confusion.total;
    print(`  ${how.label.padEnd(44)} ${describe(confusion)}  | judged ${describe(judged)}, ${pct(unknown)} UNKNOWN`);
  }
}

function robustnessLoso(nights: Night[], folds: Map<string, StagingParameters>): void {
  print('\nRobustness leave-one-subject-out (fitted on the clean nights of the others, tested degraded):');
  for (const how of DEGRADATIONS) {
    const confusion = new Confusion(4);
    const judged = new Confusion(4);
    nights.forEach((night, i) => {
      const parameters = folds.get(night.subject)!;
      const features = nightFeatures(degrade(night, how, 1000 + i));
      const hypnogram = likeliestStages(stageEvidence(features, parameters), features.judged, parameters);
      score(confusion, night.truth, hypnogram);
      scoreJudged(judged, night.truth, hypnogram);
    });
    print(`  ${how.label.padEnd(44)} ${describe(confusion)}  | judged ${describe(judged)}`);
  }
}

function timing(nights: Night[]): void {
  // An 8-hour night built from the longest record, repeated end to end.
  const source = nights.reduce((a, b) => (b.hr.length > a.hr.length ? b : a));
  const seconds = 8 * 3600;
  const hr = new Float32Array(seconds);
  for (let s = 0; s < seconds; s++) hr[s] = source.hr[s % source.hr.length]!;
  const times: number[] = [];
  const rr: number[] = [];
  for (let offset = 0; offset < seconds; offset += source.hr.length) {
    source.beats.t.forEach((t, i) => {
      if (t + offset < seconds) {
        times.push(t + offset);
        rr.push(source.beats.rr[i]!);
      }
    });
  }
  const beats = { t: Float64Array.from(times), rr: Float32Array.from(rr) };
  const move = new Float32Array(seconds).map((_, s) => (s % 900 < 5 ? 40 : 0));
  const run = (input: Parameters<typeof stageSleep>[0]): number => {
    for (let i = 0; i < 5; i++) stageSleep(input);
    const started = performance.now();
    const repeats = 40;
    for (let i = 0; i < repeats; i++) stageSleep(input);
    return (performance.now() - started) / repeats;
  };
  print('\nTime per 8-hour night (mean of 40 runs after warm-up):');
  print(`  heart rate + ${beats.t.length} beats: ${run({ hr, beats }).toFixed(2)} ms`);
  print(`  heart rate + beats + movement: ${run({ hr, beats, move }).toFixed(2)} ms`);
  print(`  heart rate only: ${run({ hr }).toFixed(2)} ms`);
}

function main(): void {
  const root = process.argv[2];
  if (!root) {
    print(
      'usage: npx tsx packages/sleep/src/validate/fit-staging.ts <folder of database folders, e.g. /work/shared/datasets>',
    );
    process.exit(2);
  }
  const nights = loadNights(path.resolve(root));
  print(`${nights.length} nights, ${new Set(nights.map((n) => n.subject)).size} subjects`);

  const parameters = fitParameters(nights);
  print('\nConstants for staging.ts:\n');
  print(parametersSource(parameters));

  const inSample = evaluate(nights, parameters);
  const folds = foldParameters(nights);
  const loso = leaveOneSubjectOut(nights, folds);
  print('\nFigures (4 classes, pooled over scored epochs, UNKNOWN counted as wake):');
  print(`  in-sample, beats + heart rate:            ${describe(inSample.beats)}`);
  print(`  in-sample, heart rate only:               ${describe(inSample.heartRate)}`);
  print(`  leave-one-subject-out, beats + HR:        ${describe(loso.figures.beats)}`);
  print(`  leave-one-subject-out, heart rate only:   ${describe(loso.figures.heartRate)}`);
  print('\n  in-sample confusion, beats + heart rate:');
  printConfusion(inSample.beats);
  print('\n  leave-one-subject-out confusion, beats + heart rate:');
  printConfusion(loso.figures.beats);
  print('\n  per night, leave-one-subject-out (beats + HR | HR only):');
  for (const [name, f] of loso.perNight)
    print(`    ${name.padEnd(8)} ${describe(f.beats)}  |  ${describe(f.heartRate)}`);

  const current = evaluate(nights, PARAMETERS);
  print(
    `\nWith the constants now in staging.ts: beats ${describe(current.beats)}, HR only ${describe(current.heartRate)}`,
  );
  robustness(nights);
  robustnessLoso(nights, folds);
  timing(nights);
}

main();
