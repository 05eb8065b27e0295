/**
 * Speed of one night's sleep analysis (issue 11: ≤ 20 ms for a night of about 30,000 samples).
 * Nights are real recordings of ../shared/datasets (apnea-ecg and slpdb, cut to 30,000 s when
 * longer), turned into the messages a sleep monitor sends (1 Hz `hr`, `inBed`, `rri` beats).
 * For each night it times, after a warm-up, the median of BENCH_ROUNDS runs of
 * `nightSignals` + `analyseNight`, and beside it the peer measured in the same run: `JSON.parse`
 * of the same night's messages, the least any reader of a stored night must do.
 *
 * Run: npx tsx bench/sleep-analysis.ts [datasets folder]   (default ../shared/datasets)
 * Options: BENCH_ROUNDS=15 (runs per night), BENCH_NIGHT_SECONDS=30000.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { analyseNight, nightSignals, type DeviceSample } from '@vigil/sleep';
import { findDatasets, readRecord, type DatasetRecord } from '../packages/sleep/src/validate/datasets.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FOLDER = process.argv[2] ?? process.env.SLEEP_DATASETS ?? path.resolve(ROOT, '../shared/datasets');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '15');
const NIGHT_SECONDS = Number(process.env.BENCH_NIGHT_SECONDS ?? '30000');
const TARGET_MS = 20;
const START = 1_767_225_600; // 2026-01-01T00:00:00Z: any fixed start will do

/** The record as a device would have sent it: one message a second with the beats since the last. */
function messagesOf(record: DatasetRecord): DeviceSample[] {
  const seconds = Math.min(record.hr.length, NIGHT_SECONDS);
  const samples: DeviceSample[] = [];
  let beat = 0;
  for (let s = 0; s < seconds; s++) {
    const rri: number[] = [];
    while (beat < record.beats.t.length && (record.beats.t[beat] ?? 0) < s + 1) {
      const rr = record.beats.rr[beat] ?? Number.NaN;
      if (Number.isFinite(rr)) rri.push(Math.round(rr));
      beat++;
    }
    const hr = record.hr[s] ?? Number.NaN;
    samples.push({ ts: START + s + 0.5, hr: Number.isNaN(hr) ? 0 : hr, inBed: true, rri });
  }
  return samples;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

function time(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

const nights: { name: string; samples: DeviceSample[]; text: string }[] = [];
for (const folder of findDatasets(FOLDER).filter((f) => f.kind !== 'rhythm')) {
  for (const name of folder.records) {
    const samples = messagesOf(readRecord(folder, name));
    nights.push({ name: `${folder.database}/${name}`, samples, text: JSON.stringify(samples) });
  }
}
if (nights.length === 0) {
  console.error(`No apnea-ecg or slpdb recordings under ${FOLDER}.`);
  process.exit(2);
}
console.log(
  `Sleep analysis bench ${new Date().toISOString()}: ${nights.length} nights from ${FOLDER}, ` +
    `up to ${NIGHT_SECONDS.toLocaleString('en')} s each, median of ${ROUNDS} runs per night`,
);

const analysisMs: number[] = [];
const peerMs: number[] = [];
const ratios: number[] = [];
for (const night of nights) {
  const first = night.samples[0]?.ts ?? START;
  const end = (night.samples[night.samples.length - 1]?.ts ?? first) + 1;
  const analyse = () => analyseNight(nightSignals(night.samples, Math.floor(first), Math.ceil(end)));
  for (let i = 0; i < 3; i++) analyse(); // warm-up: the JIT, not the measurement
  const runs: number[] = [];
  const peers: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    runs.push(time(analyse));
    peers.push(time(() => JSON.parse(night.text)));
  }
  const ms = median(runs);
  const peer = median(peers);
  analysisMs.push(ms);
  peerMs.push(peer);
  ratios.push(ms / peer);
  console.log(
    `${night.name.padEnd(18)} ${night.samples.length.toLocaleString('en').padStart(6)} samples  analysis ${ms.toFixed(2)} ms  JSON.parse ${peer.toFixed(2)} ms  ratio ${(ms / peer).toFixed(2)}`,
  );
}
const p50 = median(analysisMs);
const p95 = quantile(analysisMs, 0.95);
console.log(
  `\nanalysis per night p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${Math.max(...analysisMs).toFixed(2)} ms` +
    ` (target ≤ ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'PASS' : 'MISS'}); ` +
    `peer JSON.parse p50 ${median(peerMs).toFixed(2)} ms; analysis / peer p50 ${median(ratios).toFixed(2)}×`,
);
