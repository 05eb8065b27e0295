/**
 * Reads a V8 .cpuprofile (DevTools format) and says where the time went: self time by
 * function, and by where the code lives (a package, Vigil's own source, PGlite's WebAssembly,
 * the garbage collector, idle). Used by bench/ingest.ts with BENCH_PROFILE.
 */
import fs from 'node:fs';

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
