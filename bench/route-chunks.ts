/**
 * Route-level code splitting check: the JavaScript each console route downloads (gzip),
 * with the login route against its 250 KB budget.
 * Run: npm run build:web && npx tsx bench/route-chunks.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const manifestPath = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error('apps/web/dist/.vite/manifest.json missing: run `npm run build:web` first');
  process.exit(1);
}

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
const gz = new Map<string, number>();
const gzipOf = (file: string) => {
  if (!gz.has(file)) gz.set(file, gzipSync(fs.readFileSync(path.join(dist, file))).length);
  return gz.get(file) ?? 0;
};

/** A chunk with everything it imports statically (what the browser must fetch before it runs). */
const closure = (key: string, seen = new Set<string>()): Set<string> => {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
};
const size = (keys: Set<string>) => [...keys].reduce((sum, k) => sum + gzipOf(manifest[k]?.file ?? ''), 0);

const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error('no entry chunk');
const entry = closure(entryKey);
const language = Object.keys(manifest).find((k) => k.endsWith('locales/zh-CN.json'));
const lazyRoute = (match: string) => Object.keys(manifest).find((k) => k.includes(match));

const rows: { route: string; kb: number }[] = [];
const routeCost = (label: string, ...srcs: (string | undefined)[]) => {
  const keys = new Set(entry);
  for (const src of srcs) if (src) for (const k of closure(src)) keys.add(k);
  const kb = size(keys) / 1024;
  rows.push({ route: label, kb });
  return kb;
};

const login = routeCost('/login', lazyRoute('features/login/LoginPage'), language);
routeCost('layout (any signed-in page)', lazyRoute('layout/AppLayout'), language);
for (const key of Object.keys(manifest).filter(
  (k) => k.includes('/features/') && k.endsWith('Page.tsx') && !k.includes('login'),
)) {
  routeCost(`  + ${key.replace(/^.*features\//, '')}`, lazyRoute('layout/AppLayout'), key, language);
}
for (const r of rows) console.log(`${r.route.padEnd(60)} ${r.kb.toFixed(1).padStart(8)} KB gzip`);
const budget = 250;
console.log(
  `\nlogin route: ${login.toFixed(1)} KB gzip of a ${budget} KB budget — ratio ${(login / budget).toFixed(2)}`,
);
if (login > budget) process.exitCode = 1;
