/**
 * `npm run typecheck`: every TypeScript file, two checks at a time (the machines have two cores).
 * The node side (packages, server, simulator, scripts, benches) is one check, tsconfig.node-side.json:
 * checked project by project, the server was checked again by each project that imports it (126 s
 * of CI; 66 s so). The console has the DOM, the browser tests their own browser globals: each its own
 * check. With `--lint` (what `npm test` runs) ESLint and Prettier's check join the same queue, so
 * the static checks share both cores instead of one linter after the other (125 s → 95 s).
 * Output of each check is printed whole, after it ends, so errors never interleave; exit 1 if any
 * failed.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (...parts: string[]) => path.join(ROOT, 'node_modules', ...parts);
const TSC = bin('typescript/bin/tsc');

interface Check {
  name: string;
  args: string[];
}

const tsc = (project: string): Check => ({ name: `tsc -p ${project}`, args: [TSC, '-p', project, '--noEmit'] });
const eslint: Check = { name: 'eslint .', args: [bin('eslint/bin/eslint.js'), '.'] };
const prettier: Check = {
  name: 'prettier --check .',
  args: [bin('prettier/bin/prettier.cjs'), '--check', '.', '--log-level', 'warn'],
};
// The longest first, so the two cores finish together.
const checks = process.argv.includes('--lint')
  ? [tsc('tsconfig.node-side.json'), prettier, eslint, tsc('apps/web'), tsc('e2e')]
  : [tsc('tsconfig.node-side.json'), tsc('apps/web'), tsc('e2e')];
const parallel = Math.max(1, Math.min(2, os.availableParallelism()));

const run = (check: Check): Promise<boolean> =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, check.args, { cwd: ROOT });
    const output: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => output.push(d));
    child.stderr.on('data', (d: Buffer) => output.push(d));
    child.on('close', (code) => {
      const text = Buffer.concat(output).toString();
      const took = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`${check.name}: ${code === 0 ? 'ok' : 'FAILED'} (${took} s)\n${text}`);
      resolve(code === 0);
    });
  });

const queue = [...checks];
const results: boolean[] = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) results.push(await run(check));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
