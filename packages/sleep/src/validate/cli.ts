/**
 * `npm run sleep:validate -- --data <folder>`: runs the sleep library over every record of
 * every database folder in <folder> (the layout of ../shared/datasets/), prints a table per
 * record, the pooled figures against their targets, then one last line of JSON.
 */
import path from 'node:path';
import { findDatasets, readRecord } from './datasets.ts';
import { scoreRecord, type RecordScore } from './evaluate.ts';
import { summarise, TARGETS, type Summary } from './summary.ts';

const USAGE = 'usage: npm run sleep:validate -- --data <folder of database folders, like ../shared/datasets>';

function parseArgs(argv: string[]): string | null {
  const at = argv.indexOf('--data');
  if (argv.includes('--help') || argv.includes('-h')) return null;
  const value = at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('--data='))?.slice('--data='.length);
  return value ?? null;
}

const pct = (value: number | null): string =>
  value === null || Number.isNaN(value) ? '—' : `${(100 * value).toFixed(1)}%`;
const num = (value: number | null, digits = 1): string => (value === null ? '—' : value.toFixed(digits));

function describe(score: RecordScore): string {
  const { hrv } = score;
  return `${detectorFigures(score)}  SDNN ${num(hrv.sdnn)} (ref ${num(hrv.referenceSdnn)})  RMSSD ${num(hrv.rmssd)} (ref ${num(hrv.referenceRmssd)})`;
}

function detectorFigures(score: RecordScore): string {
  if (score.kind === 'apnea') {
    return `minute acc ${pct(score.minutes.accuracy())}  AHI ${num(score.ahi)} (ref ${num(score.referenceAhi)})`;
  }
  if (score.kind === 'staging') {
    return `epoch acc ${pct(score.epochs.accuracy())}  kappa ${num(score.epochs.kappa(), 2)}`;
  }
  const scored = score.minutes.total;
  return (
    `Se ${pct(score.minutes.sensitivity())}  Sp ${pct(score.minutes.specificity())}  ` +
    `burden ${pct(score.burden)} (ref ${pct(score.referenceBurden)})  not judged ${pct(score.unknown / Math.max(1, scored + score.unknown))}`
  );
}

const medianOf = (values: number[]): number | null => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : (sorted[Math.floor(sorted.length / 2)] ?? null);
};

/** Median relative difference to the reference, per measure, over records that have both. */
function hrvErrors(scores: RecordScore[]): { sdnn: number | null; rmssd: number | null } {
  const relative = (measured: number | null, reference: number | null): number[] =>
    measured === null || reference === null || reference === 0 ? [] : [Math.abs(measured - reference) / reference];
  return {
    sdnn: medianOf(scores.flatMap((s) => relative(s.hrv.sdnn, s.hrv.referenceSdnn))),
    rmssd: medianOf(scores.flatMap((s) => relative(s.hrv.rmssd, s.hrv.referenceRmssd))),
  };
}

function printSummary(summary: Summary, scores: RecordScore[]): void {
  console.log('\nfigure                    measured   target');
  for (const [key, value] of Object.entries(summary)) {
    if (key === 'records') continue;
    const target: number | undefined = TARGETS[key as keyof typeof TARGETS];
    const kappa = key === 'stagingKappa4';
    const shown = kappa ? num(value, 3) : pct(value);
    const verdict = target === undefined ? '' : value === null ? 'no data' : value >= target ? 'PASS' : 'MISS';
    const goal = target === undefined ? '—' : `≥ ${kappa ? target : pct(target)}`;
    console.log(`${key.padEnd(24)}  ${shown.padStart(8)}   ${goal.padEnd(8)} ${verdict}`);
  }
  const errors = hrvErrors(scores);
  console.log(
    `HRV against the datasets' whole-record reference (median relative difference): SDNN ${pct(errors.sdnn)}, RMSSD ${pct(errors.rmssd)}`,
  );
}

const folder = parseArgs(process.argv.slice(2));
if (folder === null) {
  console.log(USAGE);
  process.exit(process.argv.includes('--help') || process.argv.includes('-h') ? 0 : 2);
}
const databases = findDatasets(path.resolve(folder));
if (databases.length === 0) {
  console.error(
    `No database folder found under ${folder} (expected records with <rec>.labels.csv, .hr.csv.gz, .rr.csv.gz).`,
  );
  process.exit(2);
}
const scores: RecordScore[] = [];
for (const database of databases) {
  console.log(`\n== ${database.database} (${database.kind}, ${database.records.length} records)`);
  for (const name of database.records) {
    const score = scoreRecord(readRecord(database, name));
    scores.push(score);
    console.log(`${name.padEnd(8)} ${describe(score)}  ${score.ms.toFixed(1)} ms`);
  }
}
const summary = summarise(scores);
printSummary(summary, scores);
console.log(JSON.stringify(summary));
