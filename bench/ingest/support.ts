/** Small helpers of bench/ingest.ts: /proc, Prometheus text, quantiles, ports, tables. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;
const clockTicks = (): number => {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
};

export interface ProcSample {
  at: number;
  /** utime + stime, seconds. */
  cpu: number;
  rssBytes: number;
}

/** CPU time and RSS of a process from /proc (undefined once it is gone). */
export const procSample = (pid: number | undefined): ProcSample | undefined => {
  if (!pid) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state is field 3, utime 14, stime 15 (1-based) → indexes 11 and 12 here.
    const cpu = (Number(fields[11]) + Number(fields[12])) / clockTicks();
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { at: performance.now(), cpu, rssBytes: rssKb * 1024 };
  } catch {
    return undefined;
  }
};

/** CPU between two samples as % of one core. */
export const cpuPercent = (a: ProcSample | undefined, b: ProcSample | undefined): number =>
  a && b && b.at > a.at ? ((b.cpu - a.cpu) / ((b.at - a.at) / 1000)) * 100 : NaN;

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format → samples (no HELP/TYPE, no timestamps). */
export const parseMetrics = (text: string): Sample[] => {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] ?? ''] = l[2] ?? '';
    const raw = m[4] ?? 'NaN';
    out.push({
      name: m[1] ?? '',
      labels,
      value: raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw),
    });
  }
  return out;
};

/** Sum of a metric's samples whose labels include `match`. */
export const sumOf = (samples: Sample[], name: string, match: Record<string, string> = {}): number =>
  samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);

/** Cumulative bucket counts of a histogram, by upper bound (`le`), ascending. */
export type Buckets = [le: number, count: number][];

export const bucketsOf = (samples: Sample[], name: string, match: Record<string, string> = {}): Buckets => {
  const byLe = new Map<number, number>();
  for (const s of samples) {
    if (s.name !== `${name}_bucket`) continue;
    if (!Object.entries(match).every(([k, v]) => s.labels[k] === v)) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    byLe.set(le, (byLe.get(le) ?? 0) + s.value);
  }
  return [...byLe.entries()].sort((a, b) => a[0] - b[0]);
};

/** end − start, bucket by bucket (a bucket missing at the start counts from 0). */
export const bucketDelta = (start: Buckets, end: Buckets): Buckets => {
  const before = new Map(start);
  return end.map(([le, count]) => [le, count - (before.get(le) ?? 0)]);
};

/** Observations in a histogram (its +Inf bucket). */
export const bucketTotal = (b: Buckets): number => b.at(-1)?.[1] ?? 0;

/**
 * Prometheus' histogram_quantile: find the bucket holding rank q·count and interpolate linearly
 * within it (from 0 for the first bucket); in the +Inf bucket, answer the highest finite bound.
 */
export const histogramQuantile = (q: number, buckets: Buckets): number => {
  const total = bucketTotal(buckets);
  if (!buckets.length || total <= 0) return NaN;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [le, count] of buckets) {
    if (count >= rank) {
      if (le === Infinity) return lowerBound;
      if (count === lowerCount) return le;
      return lowerBound + (le - lowerBound) * ((rank - lowerCount) / (count - lowerCount));
    }
    lowerBound = le;
    lowerCount = count;
  }
  return lowerBound;
};

/** A histogram kept client-side with the given bounds (the floor's lag, bucketed like Vigil's). */
export class LocalHistogram {
  private readonly counts: number[];

  constructor(private readonly bounds: number[]) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number) {
    let i = 0;
    while (i < this.bounds.length && value > (this.bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
  }

  /** Cumulative buckets, as Prometheus exposes them. */
  snapshot(): Buckets {
    let sum = 0;
    return [...this.bounds, Infinity].map((le, i) => {
      sum += this.counts[i] ?? 0;
      return [le, sum];
    });
  }
}

/** The bounds of `vigil_ingest_lag_seconds` (apps/server/.../ingest-metrics.ts). */
export const LAG_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60];

/** The q-quantile of raw values (nearest rank). */
export const quantile = (values: number[], q: number): number => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
};

export { freePort } from '../../apps/server/src/test/free-port.ts';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Fixed-width table. */
export const table = (head: string[], rows: (string | number)[][]): string => {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
};

const finite = (n: number) => Number.isFinite(n);
export const fmt = {
  int: (n: number) => (finite(n) ? Math.round(n).toLocaleString('en-US') : '–'),
  rate: (n: number) => (finite(n) ? `${Math.round(n).toLocaleString('en-US')}/s` : '–'),
  ms: (seconds: number) =>
    finite(seconds) ? (seconds < 1 ? `${(seconds * 1000).toFixed(1)} ms` : `${seconds.toFixed(2)} s`) : '–',
  msOf: (ms: number) => (finite(ms) ? `${ms.toFixed(1)} ms` : '–'),
  pct: (n: number) => (finite(n) ? `${n.toFixed(0)}%` : '–'),
  ratio: (n: number) => (finite(n) ? `${n.toFixed(2)}×` : '–'),
  mb: (bytes: number) => (finite(bytes) ? `${Math.round(bytes / 1024 / 1024)} MB` : '–'),
};
