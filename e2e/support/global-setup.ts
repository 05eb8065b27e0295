import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasChromium } from './chromium.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEB = path.join(ROOT, 'apps/web');
const INDEX = path.join(WEB, 'dist/index.html');
/** What the console bundle is built from. */
const SOURCES = [
  path.join(WEB, 'src'),
  path.join(WEB, 'index.html'),
  path.join(WEB, 'vite.config.ts'),
  path.join(WEB, 'package.json'),
  path.join(ROOT, 'packages/contract/src'),
];

const newestSource = (entry: string): number => {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestSource(path.join(entry, name))));
};

/** True when dist/index.html is missing or older than any console source. */
export const consoleIsStale = (): boolean =>
  !fs.existsSync(INDEX) || fs.statSync(INDEX).mtimeMs < Math.max(...SOURCES.map(newestSource));

/** Builds the web console once before the browser tests when it is missing or out of date. */
export default function setup(): void {
  if (!hasChromium || !consoleIsStale()) return;
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Vitest sets NODE_ENV=test, and Vite keeps a NODE_ENV it finds: React and antd would be their development builds.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(npm, ['run', 'build:web'], { cwd: ROOT, encoding: 'utf8', env });
  if (result.status !== 0) {
    throw new Error(`e2e: npm run build:web failed (exit ${result.status})\n${result.stdout}\n${result.stderr}`);
  }
  console.warn(`e2e: built the web console (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
