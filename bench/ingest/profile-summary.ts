/**
 * Reads a V8 .cpuprofile (DevTools format) and says where the time went: self time by
 * function, and by where the code lives (a package, Vigil's own source, PGlite's WebAssembly,
 * the garbage collector, idle). Used by the benches with BENCH_PROFILE.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fmt, sleep, table } from './support.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Everything but (idle): the time the thread was working. */
  busyMs: number;
  byPlace: ProfileShare[];
  byFunction: ProfileShare[];
}

/** Where a frame's code lives, in words an operator reads. */
const placeOf = (node: ProfileNode): string => {
  const { url, functionName } = node.callFrame;
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return 'V8 / native (program)';
  if (url.startsWith('wasm://')) return 'PGlite (WebAssembly: PostgreSQL)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1] === '@electric-sql' ? 'PGlite (JavaScript side)' : pkg[1];
  const own = /\/(apps|packages)\/([^/]+)\/src\/(?:modules\/)?([^/]+)/.exec(url);
  if (own) return `vigil ${own[1] === 'packages' ? own[2] : own[3]}`;
  if (url.startsWith('node:') || url === '') return 'Node.js internals';
  return url;
};

const label = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    .replace(/^.*node_modules\//, '')
    .replace(/^file:\/\/.*?\/(apps|packages|bench)\//, '$1/')
    .replace(/^wasm:\/\/.*$/, 'wasm');
  return `${functionName || '(anonymous)'} ${where}${where && where !== 'wasm' ? `:${lineNumber + 1}` : ''}`;
};

export const summariseProfile = (file: string, top = 15): ProfileSummary => {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    totalUs += us;
    const place = placeOf(node);
    if (place === '(idle)') {
      idleUs += us;
      continue;
    }
    places.set(place, (places.get(place) ?? 0) + us);
    const fn = label(node);
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const ranked = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: busyUs ? us / busyUs : 0 }));
  return { totalMs: totalUs / 1000, busyMs: busyUs / 1000, byPlace: ranked(places), byFunction: ranked(functions) };
};

/** Stops a server's profiler (the second SIGUSR2) and waits for the profile file it writes. */
export const takeProfile = async (
  server: Pick<ChildProcess, 'kill'>,
  dir: string,
): Promise<{ file: string; summary: ProfileSummary }> => {
  const before = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  server.kill('SIGUSR2');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const written = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !before.has(f)) : [];
    const file = written.find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const full = path.join(dir, file);
      // Written in one call; parse once it is complete.
      try {
        return { file: full, summary: summariseProfile(full) };
      } catch {
        // still being written
      }
    }
    if (Date.now() > deadline) throw new Error(`no CPU profile appeared in ${dir}`);
    await sleep(250);
  }
};

/** Where the profiled time went, as two tables. */
export const printProfile = (
  { file, summary }: { file: string; summary: ProfileSummary },
  out: (line: string) => void,
): void => {
  out(
    `\nCPU profile of the run (${file}; open in Chrome DevTools → Performance, or speedscope): ` +
      `busy ${fmt.int(summary.busyMs / 1000)} s of ${fmt.int(summary.totalMs / 1000)} s on the main thread`,
  );
  const share = (rows: ProfileShare[]) => rows.map((r) => [r.name, fmt.int(r.ms), fmt.pct(r.share * 100)]);
  out(table(['where (self time)', 'ms', 'of busy'], share(summary.byPlace.slice(0, 12))));
  out(table(['function (self time)', 'ms', 'of busy'], share(summary.byFunction.slice(0, 15))));
};
