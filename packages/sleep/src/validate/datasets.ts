/**
 * Reads the expert-labelled recordings in the layout of `../shared/datasets/` (one folder per
 * database, `records.csv`, and per record `<rec>.hr.csv.gz`, `<rec>.rr.csv.gz`,
 * `<rec>.labels.csv`). The database of a folder is recognised by its labels' header, not by
 * its name, so a copy with more records or another name validates the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beatSeries, type BeatSeries } from '../series.ts';

export type DatabaseKind = 'apnea' | 'staging' | 'rhythm';

interface RecordBase {
  database: string;
  name: string;
  /** Seconds covered by the 1 Hz heart-rate file. */
  duration: number;
  /** 1 Hz heart rate from second 0; NaN where the file has a gap. */
  hr: Float32Array;
  beats: BeatSeries;
  /** WFDB beat labels where the source labels beats (`N`, `V`, `A`, …), else empty. */
  beatLabels: string[];
  /** This record's row of `records.csv` (reference values), empty if it has none. */
  reference: Record<string, string>;
}

/** Apnea-ECG: one label a minute from second 0 (`1` apnea or hypopnea, `0` normal). */
export interface ApneaRecord extends RecordBase {
  kind: 'apnea';
  minutes: Uint8Array;
}

/** slpdb: 30-second epochs (`t` from record start) with an R&K stage and apnea events. */
export interface StagingRecord extends RecordBase {
  kind: 'staging';
  epochs: { t: number; stage: string; events: string[] }[];
}

/** ltafdb: rhythm runs `[start, end)` in seconds. */
export interface RhythmRecord extends RecordBase {
  kind: 'rhythm';
  runs: { start: number; end: number; rhythm: string }[];
}

export type DatasetRecord = ApneaRecord | StagingRecord | RhythmRecord;

export interface DatasetFolder {
  database: string;
  kind: DatabaseKind;
  records: string[];
  dir: string;
}

const csvRows = (text: string): string[][] =>
  text
    .split(/\r?\n/)
    .filter((line) => line.length > 0)
    .map((line) => line.split(','));

const gunzipText = (file: string): string => zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');

const KIND_BY_HEADER: Record<string, DatabaseKind> = {
  't_s,label': 'apnea',
  't_s,stage,events': 'staging',
  'start_s,end_s,rhythm': 'rhythm',
};

/** Every database folder directly under `root` (or `root` itself if it is one). */
export function findDatasets(root: string): DatasetFolder[] {
  const dirs = fs.existsSync(path.join(root, 'records.csv'))
    ? [root]
    : fs
        .readdirSync(root)
        .map((name) => path.join(root, name))
        .filter((dir) => fs.statSync(dir).isDirectory()) // follows links to a database folder
        .sort();
  const found: DatasetFolder[] = [];
  for (const dir of dirs) {
    const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    const records = names
      .filter((name) => name.endsWith('.labels.csv'))
      .map((name) => name.slice(0, -'.labels.csv'.length))
      .filter((rec) => names.includes(`${rec}.hr.csv.gz`) && names.includes(`${rec}.rr.csv.gz`))
      .sort();
    const first = records[0];
    if (first === undefined) continue;
    const header = fs.readFileSync(path.join(dir, `${first}.labels.csv`), 'utf8').split(/\r?\n/, 1)[0] ?? '';
    const kind = KIND_BY_HEADER[header.trim()];
    if (kind) found.push({ database: path.basename(dir), kind, records, dir });
  }
  return found;
}

function readReferences(dir: string): Map<string, Record<string, string>> {
  const file = path.join(dir, 'records.csv');
  const byRecord = new Map<string, Record<string, string>>();
  if (!fs.existsSync(file)) return byRecord;
  const [header, ...rows] = csvRows(fs.readFileSync(file, 'utf8'));
  if (!header) return byRecord;
  for (const row of rows) {
    const entry = Object.fromEntries(header.map((key, i) => [key, row[i] ?? '']));
    byRecord.set(entry['record'] ?? '', entry);
  }
  return byRecord;
}

function readHeartRate(file: string): Float32Array {
  const rows = csvRows(gunzipText(file)).slice(1);
  const last = rows.length > 0 ? Number(rows[rows.length - 1]?.[0]) : -1;
  const hr = new Float32Array(Math.max(0, last + 1)).fill(Number.NaN);
  for (const [t, bpm] of rows) {
    const second = Number(t);
    if (bpm !== undefined && bpm !== '' && Number.isInteger(second) && second >= 0) hr[second] = Number(bpm);
  }
  return hr;
}

function readBeats(file: string): { beats: BeatSeries; labels: string[] } {
  const rows = csvRows(gunzipText(file)).slice(1);
  const times = rows.map((row) => Number(row[0]));
  const intervals = rows.map((row) => (row[1] === undefined || row[1] === '' ? Number.NaN : Number(row[1])));
  return { beats: beatSeries(times, intervals), labels: rows.map((row) => row[2] ?? '') };
}

/** One record of a folder found by `findDatasets`, with its labels. */
export function readRecord(folder: DatasetFolder, name: string): DatasetRecord {
  const hr = readHeartRate(path.join(folder.dir, `${name}.hr.csv.gz`));
  const { beats, labels: beatLabels } = readBeats(path.join(folder.dir, `${name}.rr.csv.gz`));
  const labelRows = csvRows(fs.readFileSync(path.join(folder.dir, `${name}.labels.csv`), 'utf8')).slice(1);
  const base = {
    database: folder.database,
    name,
    duration: hr.length,
    hr,
    beats,
    beatLabels,
    reference: readReferences(folder.dir).get(name) ?? {},
  };
  if (folder.kind === 'apnea') {
    const minutes = new Uint8Array(labelRows.length);
    labelRows.forEach(([t, label]) => {
      const index = Math.round(Number(t) / 60);
      if (index >= 0 && index < minutes.length) minutes[index] = label === 'A' ? 1 : 0;
    });
    return { ...base, kind: 'apnea', minutes };
  }
  if (folder.kind === 'staging') {
    const epochs = labelRows.map(([t, stage, events]) => ({
      t: Number(t),
      stage: stage ?? '',
      events: (events ?? '').split(' ').filter(Boolean),
    }));
    return { ...base, kind: 'staging', epochs };
  }
  const runs = labelRows.map(([start, end, rhythm]) => ({
    start: Number(start),
    end: Number(end),
    rhythm: rhythm ?? '',
  }));
  return { ...base, kind: 'rhythm', runs };
}
