/**
 * Fits the apnea detector's coefficients and measures it honestly.
 *
 *   npx tsx packages/sleep/src/validate/fit-apnea.ts /work/shared/datasets [--quick] [--nights]
 *
 * 1. Features of every minute of the Apnea-ECG records (`apneaFeatures`, the detector's own code).
 * 2. Two logistic regressions against the expert's A/N minute labels: heart rate only, and heart
 *    rate plus beat intervals. Then the AHI map (AHI ≈ a × share of minutes with smoothed
 *    probability ≥ t; a and t together), fitted against `records.csv` AHI in √AHI so that mild
 *    and severe nights weigh alike, on the hr-only and the with-beats answers at once.
 * 3. Prints the constants to paste into `apnea.ts`, then the figures in-sample and
 *    leave-one-subject-out (every fit redone without the subject's nights).
 * 4. With the constants now in `apnea.ts`: the figures under added noise and dropouts, the
 *    slpdb check (another database, never fitted on) and the time per night. `--quick` stops
 *    after 3, `--nights` lists every night in-sample.
 */
import path from 'node:path';
import {
  AHI_PER_APNEA_SHARE,
  AHI_THRESHOLD,
  apneaFeatures,
  BEAT_FEATURES,
  detectApnea,
  estimateAhi,
  HR_FEATURES,
  MINUTE_THRESHOLD,
  minuteProbabilities,
  smoothProbabilities,
  type ApneaFeatures,
  type ApneaResult,
  type LogisticModel,
} from '../apnea.ts';
import { UNKNOWN, type BeatSeries } from '../series.ts';
import { Confusion } from './agreement.ts';
import { findDatasets, readRecord, type ApneaRecord, type StagingRecord } from './datasets.ts';
import { seeded as random } from './seeded.ts';

/** Clinical AHI grades as `evaluate.ts` counts them: normal < 5, mild 5–15, moderate 15–30, severe ≥ 30. */
const ahiGrade = (ahi: number): number => (ahi < 5 ? 0 : ahi < 15 ? 1 : ahi < 30 ? 2 : 3);
const print = (text = ''): void => void process.stdout.write(`${text}\n`);

interface Night {
  name: string;
  subject: string;
  group: string;
  ahi: number;
  labels: Uint8Array;
  withBeats: ApneaFeatures;
  hrOnly: ApneaFeatures;
}

interface AhiMap {
  threshold: number;
  perShare: number;
}

/* ---- logistic regression (Newton / IRLS, small ridge) ---- */

function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c] ?? 0) > Math.abs(m[pivot * n + c] ?? 0)) pivot = r;
    for (let j = 0; j < n; j++) {
      const t = m[c * n + j] ?? 0;
      m[c * n + j] = m[pivot * n + j] ?? 0;
      m[pivot * n + j] = t;
    }
    const t = x[c] ?? 0;
    x[c] = x[pivot] ?? 0;
    x[pivot] = t;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = (m[r * n + c] ?? 0) / (m[c * n + c] ?? 1);
      for (let j = c; j < n; j++) m[r * n + j] = (m[r * n + j] ?? 0) - f * (m[c * n + j] ?? 0);
      x[r] = (x[r] ?? 0) - f * (x[c] ?? 0);
    }
  }
  return x.map((v, i) => v / (m[i * n + i] ?? 1));
}

/** Rows are standardised feature vectors (NaN → 0, the mean); returns [bias, ...weights]. */
function fitLogistic(rows: Float64Array[], y: number[], ridge = 1e-4): Float64Array {
  const k = (rows[0]?.length ?? 0) + 1;
  const beta = new Float64Array(k);
  const xi = new Float64Array(k);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Float64Array(k);
    const hessian = new Float64Array(k * k);
    rows.forEach((row, i) => {
      xi[0] = 1;
      xi.set(row, 1);
      let z = 0;
      for (let j = 0; j < k; j++) z += (beta[j] ?? 0) * (xi[j] ?? 0);
      const p = 1 / (1 + Math.exp(-z));
      const w = p * (1 - p);
      for (let a = 0; a < k; a++) {
        gradient[a] = (gradient[a] ?? 0) + (p - (y[i] ?? 0)) * (xi[a] ?? 0);
        for (let b = a; b < k; b++) hessian[a * k + b] = (hessian[a * k + b] ?? 0) + w * (xi[a] ?? 0) * (xi[b] ?? 0);
      }
    });
    for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) hessian[a * k + b] = hessian[b * k + a] ?? 0;
    for (let a = 1; a < k; a++) {
      gradient[a] = (gradient[a] ?? 0) + ridge * rows.length * (beta[a] ?? 0);
      hessian[a * k + a] = (hessian[a * k + a] ?? 0) + ridge * rows.length;
    }
    const step = solve(hessian, gradient, k);
    let largest = 0;
    step.forEach((s, j) => {
      beta[j] = (beta[j] ?? 0) - s;
      largest = Math.max(largest, Math.abs(s));
    });
    if (largest < 1e-8) break;
  }
  return beta;
}

/** The feature row the model of `kind` reads for minute m (NaN where missing). */
function featureRow(f: ApneaFeatures, m: number, kind: 'hr' | 'beat'): Float64Array | null {
  const nf = HR_FEATURES.length;
  const row = new Float64Array(nf + (kind === 'beat' ? BEAT_FEATURES.length : 0));
  row.set(f.hr.subarray(m * nf, (m + 1) * nf));
  if (kind === 'beat') {
    const nb = BEAT_FEATURES.length;
    const beat = f.beat.subarray(m * nb, (m + 1) * nb);
    if (beat.some((v) => Number.isNaN(v))) return null;
    row.set(beat, nf);
  }
  return row;
}

function fitModel(nights: Night[], kind: 'hr' | 'beat'): LogisticModel {
  const raw: Float64Array[] = [];
  const y: number[] = [];
  for (const night of nights) {
    const f = kind === 'hr' ? night.hrOnly : night.withBeats;
    for (let m = 0; m < f.minutes; m++) {
      const row = f.judged[m] ? featureRow(f, m, kind) : null;
      if (!row) continue;
      raw.push(row);
      y.push(night.labels[m] ?? 0);
    }
  }
  const k = raw[0]?.length ?? 0;
  const mean = new Array<number>(k).fill(0);
  const scale = new Array<number>(k).fill(1);
  for (let j = 0; j < k; j++) {
    const values = raw.map((row) => row[j] ?? Number.NaN).filter((v) => !Number.isNaN(v));
    const mu = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
    const variance = values.reduce((s, v) => s + (v - mu) ** 2, 0) / Math.max(1, values.length);
    mean[j] = mu;
    scale[j] = Math.sqrt(variance) || 1;
  }
  const rows = raw.map((row) => row.map((v, j) => (Number.isNaN(v) ? 0 : (v - (mean[j] ?? 0)) / (scale[j] ?? 1))));
  const beta = fitLogistic(rows, y);
  return { mean, scale, weights: Array.from(beta.subarray(1)), bias: beta[0] ?? 0 };
}

/* ---- scoring ---- */

interface Models {
  hr: LogisticModel;
  beat: LogisticModel;
  ahi: AhiMap;
}

/** The detector's answer for one night with the given models: minutes and smoothed probabilities. */
function classify(f: ApneaFeatures, hr: LogisticModel, beat: LogisticModel): { minutes: Uint8Array; p: Float64Array } {
  const p = smoothProbabilities(minuteProbabilities(f, hr, beat));
  const minutes = Uint8Array.from(p, (v) => (Number.isNaN(v) ? UNKNOWN : v >= MINUTE_THRESHOLD ? 1 : 0));
  return { minutes, p };
}

const AHI_THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5];

/** One map for both models: the threshold and scale with the least √AHI squared error. */
function fitAhiMap(probabilities: Float64Array[], reference: number[]): AhiMap {
  let best = { threshold: 0.5, perShare: 80, error: Infinity };
  for (const threshold of AHI_THRESHOLDS) {
    const shares = probabilities.map((p) => estimateAhi(p, threshold, 1));
    for (let perShare = 20; perShare <= 200; perShare++) {
      let error = 0;
      shares.forEach((share, i) => {
        error += (Math.sqrt(perShare * (share ?? 0)) - Math.sqrt(reference[i] ?? 0)) ** 2;
      });
      if (error < best.error - 1e-12) best = { threshold, perShare, error };
    }
  }
  return { threshold: best.threshold, perShare: best.perShare };
}

interface Figures {
  minutes: Confusion;
  records: Confusion;
  grades: Confusion;
}

const emptyFigures = (): Figures => ({
  minutes: new Confusion(2),
  records: new Confusion(2),
  grades: new Confusion(4),
});

/** Adds one night to the figures exactly as `validate/evaluate.ts` counts them. */
function addNight(
  figures: Figures,
  night: { labels: Uint8Array; group: string; ahi: number },
  minutes: Uint8Array,
  ahi: number | null,
): void {
  night.labels.forEach((truth, m) => figures.minutes.add(truth, minutes[m] === 1 ? 1 : 0));
  if (night.group === 'A' || night.group === 'C')
    figures.records.add(night.group === 'A' ? 1 : 0, ahi !== null && ahi >= 5 ? 1 : 0);
  figures.grades.add(ahiGrade(night.ahi), ahiGrade(ahi ?? 0));
}

function fitAll(nights: Night[]): Models {
  const hr = fitModel(nights, 'hr');
  const beat = fitModel(nights, 'beat');
  const reference = nights.flatMap((n) => [n.ahi, n.ahi]);
  const probabilities = nights.flatMap((n) => [classify(n.hrOnly, hr, beat).p, classify(n.withBeats, hr, beat).p]);
  return { hr, beat, ahi: fitAhiMap(probabilities, reference) };
}

function score(nights: Night[], models: Models, figures: { hr: Figures; beat: Figures }): void {
  for (const night of nights) {
    const hrOnly = classify(night.hrOnly, models.hr, models.beat);
    addNight(figures.hr, night, hrOnly.minutes, estimateAhi(hrOnly.p, models.ahi.threshold, models.ahi.perShare));
    const withBeats = classify(night.withBeats, models.hr, models.beat);
    addNight(
      figures.beat,
      night,
      withBeats.minutes,
      estimateAhi(withBeats.p, models.ahi.threshold, models.ahi.perShare),
    );
  }
}

const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;
const line = (label: string, f: Figures): string =>
  `${label.padEnd(34)} minutes ${pct(f.minutes.accuracy())} (Se ${pct(f.minutes.sensitivity())}, Sp ${pct(f.minutes.specificity())})  ` +
  `records A/C ${pct(f.records.accuracy())}  AHI grade ${pct(f.grades.accuracy())}`;

const numbers = (values: readonly number[], digits = 4): string =>
  `[${values.map((v) => Number(v.toFixed(digits))).join(', ')}]`;
const modelSource = (name: string, m: LogisticModel): string =>
  `export const ${name}: LogisticModel = {\n  mean: ${numbers(m.mean)},\n  scale: ${numbers(m.scale)},\n  weights: ${numbers(m.weights)},\n  bias: ${m.bias.toFixed(4)},\n};`;

/* ---- perturbations for the robustness check (deterministic) ---- */

const gaussian = (next: () => number): number =>
  Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());

interface Perturbation {
  label: string;
  hrNoise: number; // SD, bpm
  jitter: number; // ± ms on each beat time
  dropout: number; // share of the night removed in 1–5 minute chunks
}

function perturb(
  record: ApneaRecord | StagingRecord,
  how: Perturbation,
  seed: number,
): { hr: Float32Array; beats: BeatSeries } {
  const next = random(seed);
  const hr = Float32Array.from(record.hr, (v) => (Number.isNaN(v) ? v : v + how.hrNoise * gaussian(next)));
  const times = Float64Array.from(record.beats.t, (t) => t + ((2 * next() - 1) * how.jitter) / 1000);
  const rr = Float32Array.from(record.beats.rr, (v, i) =>
    how.jitter > 0 && i > 0 ? 1000 * ((times[i] ?? 0) - (times[i - 1] ?? 0)) : v,
  );
  const removed = new Uint8Array(hr.length);
  let lost = 0;
  while (lost < how.dropout * hr.length) {
    const length = MINUTE_CHUNK * (1 + Math.floor(next() * 5));
    const start = Math.floor(next() * Math.max(1, hr.length - length));
    for (let t = start; t < start + length && t < hr.length; t++) {
      if (!removed[t]) lost++;
      removed[t] = 1;
    }
  }
  removed.forEach((gone, t) => {
    if (gone) hr[t] = Number.NaN;
  });
  const keep = Array.from(times.keys()).filter((i) => !removed[Math.floor(times[i] ?? 0)]);
  return {
    hr,
    beats: {
      t: Float64Array.from(keep, (i) => times[i] ?? 0),
      rr: Float32Array.from(keep, (i) => rr[i] ?? Number.NaN),
    },
  };
}
const MINUTE_CHUNK = 60;

/* ---- slpdb: apnea events per 30-s epoch, another database ---- */

const BREATHING_EVENTS = new Set(['H', 'HA', 'OA', 'X', 'CA', 'CAA']);

function slpdbMinutes(record: StagingRecord, minutes: number): Uint8Array {
  const truth = new Uint8Array(minutes).fill(UNKNOWN);
  for (const epoch of record.epochs) {
    const m = Math.floor(epoch.t / 60);
    if (m < 0 || m >= minutes) continue;
    const event = epoch.events.some((e) => BREATHING_EVENTS.has(e)) ? 1 : 0;
    truth[m] = truth[m] === UNKNOWN ? event : Math.max(truth[m] ?? 0, event);
  }
  return truth;
}

/* ---- main ---- */

function loadNights(root: string): { nights: Night[]; records: ApneaRecord[] } {
  const folder = findDatasets(root).find((d) => d.kind === 'apnea');
  if (!folder) throw new Error(`no Apnea-ECG folder under ${root}`);
  const records = folder.records.map((name) => readRecord(folder, name) as ApneaRecord);
  const nights = records.map((r) => ({
    name: r.name,
    subject: r.reference['subject'] ?? r.name,
    group: r.reference['group'] ?? '',
    ahi: Number(r.reference['AHI'] ?? 0),
    labels: r.minutes,
    withBeats: apneaFeatures({ hr: r.hr, beats: r.beats }),
    hrOnly: apneaFeatures({ hr: r.hr }),
  }));
  return { nights, records };
}

const nightAhi = (f: ApneaFeatures, models: Models): number | null =>
  estimateAhi(classify(f, models.hr, models.beat).p, models.ahi.threshold, models.ahi.perShare);

/** Per night: true apnea share, estimated AHI in-sample and leave-one-subject-out (hr only /
 * hr + beats), reference AHI. */
function printNights(nights: Night[], models: Models, losoModels: Map<string, Models>): void {
  const shown = (v: number | null): string => (v === null ? '—' : v.toFixed(1));
  print('\nnight  group  apnea share   AHI in-sample hr / +beats   AHI LOSO hr / +beats   reference AHI');
  for (const night of nights) {
    const truth = night.labels.reduce((s, v) => s + v, 0) / Math.max(1, night.labels.length);
    const held = losoModels.get(night.subject) ?? models;
    const inSample = `${shown(nightAhi(night.hrOnly, models))} / ${shown(nightAhi(night.withBeats, models))}`;
    const loso = `${shown(nightAhi(night.hrOnly, held))} / ${shown(nightAhi(night.withBeats, held))}`;
    print(
      `${night.name.padEnd(6)} ${night.group.padEnd(6)} ${truth.toFixed(2).padStart(11)}   ${inSample.padStart(25)}   ${loso.padStart(20)}   ${night.ahi}`,
    );
  }
}

function inSampleAndLoso(nights: Night[]): Models {
  const models = fitAll(nights);
  print('// ---- constants for apnea.ts ----');
  print(modelSource('HR_MODEL', models.hr));
  print(modelSource('BEAT_MODEL', models.beat));
  print(
    `export const AHI_THRESHOLD = ${models.ahi.threshold};\nexport const AHI_PER_APNEA_SHARE = ${models.ahi.perShare};`,
  );
  const inSample = { hr: emptyFigures(), beat: emptyFigures() };
  score(nights, models, inSample);
  const loso = { hr: emptyFigures(), beat: emptyFigures() };
  const losoModels = new Map<string, Models>();
  for (const subject of new Set(nights.map((n) => n.subject))) {
    const held = nights.filter((n) => n.subject === subject);
    const without = fitAll(nights.filter((n) => n.subject !== subject));
    losoModels.set(subject, without);
    score(held, without, loso);
  }
  if (process.argv.includes('--nights')) printNights(nights, models, losoModels);
  print('\n== Apnea-ECG, fitted constants just printed');
  print(line('in-sample, hr only', inSample.hr));
  print(line('in-sample, hr + beats', inSample.beat));
  print(line('leave-one-subject-out, hr only', loso.hr));
  print(line('leave-one-subject-out, hr + beats', loso.beat));
  return models;
}

function runDetector(hr: Float32Array, beats: BeatSeries | undefined): { result: ApneaResult; ms: number } {
  const started = performance.now();
  const result = detectApnea({ hr, beats });
  return { result, ms: performance.now() - started };
}

function robustness(nights: Night[], records: ApneaRecord[]): void {
  const cases: Perturbation[] = [
    { label: 'as recorded', hrNoise: 0, jitter: 0, dropout: 0 },
    { label: 'hr + N(0, 2 bpm)', hrNoise: 2, jitter: 0, dropout: 0 },
    { label: 'hr + N(0, 3 bpm)', hrNoise: 3, jitter: 0, dropout: 0 },
    { label: 'beats ± 30 ms', hrNoise: 0, jitter: 30, dropout: 0 },
    { label: '10% dropped, 1–5 min chunks', hrNoise: 0, jitter: 0, dropout: 0.1 },
    { label: 'all three (2 bpm, 30 ms, 10%)', hrNoise: 2, jitter: 30, dropout: 0.1 },
  ];
  print('\n== Robustness, constants in apnea.ts (AHI map of apnea.ts for both)');
  for (const how of cases) {
    const hrOnly = emptyFigures();
    const withBeats = emptyFigures();
    records.forEach((record, i) => {
      const night = nights[i];
      if (!night) return;
      const noisy = perturb(record, how, 1000 + i);
      const a = runDetector(noisy.hr, undefined).result;
      addNight(hrOnly, night, a.minutes, a.ahi);
      const b = runDetector(noisy.hr, noisy.beats).result;
      addNight(withBeats, night, b.minutes, b.ahi);
    });
    print(line(`${how.label}, hr only`, hrOnly));
    print(line(`${how.label}, hr + beats`, withBeats));
  }
}

function timing(records: ApneaRecord[]): void {
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const r of records) times.push((runDetector(r.hr, r.beats).ms * (8 * 3600)) / r.hr.length);
  }
  times.sort((a, b) => a - b);
  const hrTimes = records
    .map((r) => (runDetector(r.hr, undefined).ms * (8 * 3600)) / r.hr.length)
    .sort((a, b) => a - b);
  print(
    `\n== Time per 8-hour night: hr + beats median ${(times[times.length >> 1] ?? 0).toFixed(2)} ms, ` +
      `95th centile ${(times[Math.floor(0.95 * (times.length - 1))] ?? 0).toFixed(2)} ms; hr only median ${(hrTimes[hrTimes.length >> 1] ?? 0).toFixed(2)} ms`,
  );
}

function slpdbCheck(root: string): void {
  const folder = findDatasets(root).find((d) => d.database === 'slpdb' || d.kind === 'staging');
  if (!folder) return;
  print(`\n== ${folder.database} (apnea/hypopnea events per 30-s epoch; minute = any event in it)`);
  const pooled = { hr: new Confusion(2), beat: new Confusion(2) };
  for (const name of folder.records) {
    const record = readRecord(folder, name) as StagingRecord;
    const reference = Number(record.reference['events_per_recording_hour'] ?? Number.NaN);
    const published = record.reference['published_AHI'] ?? '';
    const parts: string[] = [];
    for (const kind of ['hr', 'beat'] as const) {
      const result = detectApnea({ hr: record.hr, beats: kind === 'beat' ? record.beats : undefined });
      const truth = slpdbMinutes(record, result.minutes.length);
      const confusion = new Confusion(2);
      truth.forEach((t, m) => {
        if (t !== UNKNOWN) confusion.add(t, result.minutes[m] === 1 ? 1 : 0);
      });
      pooled[kind].merge(confusion);
      parts.push(
        `${kind === 'hr' ? 'hr only' : 'hr+beats'} acc ${pct(confusion.accuracy())} AHI ${result.ahi?.toFixed(1) ?? '—'}`,
      );
    }
    const events = reference.toFixed(1);
    print(`${name.padEnd(7)} ${parts.join('   ')}   (events/h ${events}, published AHI ${published})`);
  }
  for (const kind of ['hr', 'beat'] as const) {
    const c = pooled[kind];
    print(
      `slpdb pooled, ${kind === 'hr' ? 'hr only ' : 'hr+beats'}: minutes ${pct(c.accuracy())} (Se ${pct(c.sensitivity())}, Sp ${pct(c.specificity())})`,
    );
  }
}

const root = path.resolve(process.argv[2] ?? '/work/shared/datasets');
const { nights, records } = loadNights(root);
inSampleAndLoso(nights);
if (!process.argv.includes('--quick')) {
  print(`\n(apnea.ts now has AHI_THRESHOLD = ${AHI_THRESHOLD}, AHI_PER_APNEA_SHARE = ${AHI_PER_APNEA_SHARE})`);
  robustness(nights, records);
  slpdbCheck(root);
  timing(records);
}
