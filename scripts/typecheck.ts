/**
 * `npm run typecheck`: every TypeScript file, two checks at a time (the machines have two cores).
 * The node side (packages, server, simulator, scripts, benches) is one check, tsconfig.node-side.json:
 * checked project by project, the server was checked again by each project that imports it (126 s
 * of CI; 60 s so). The console has the DOM, the browser tests their own browser globals: each its own
 * check. Output of each check is printed whole, after it ends, so errors never interleave; exit 1 if
 * any failed.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROJECTS = ['tsconfig.node-side.json', 'apps/web', 'e2e'];
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const parallel = Math.max(1, Math.min(2, os.availableParallelism()));

const check = (project: string): Promise<boolean> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '-p', project, '--noEmit'], { cwd: ROOT });
    const output: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => output.push(d));
    child.stderr.on('data', (d: Buffer) => output.push(d));
    child.on('close', (code) => {
      const text = Buffer.concat(output).toString();
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : 'FAILED'}\n${text}`);
      resolve(code === 0);
    });
  });

const queue = [...PROJECTS];
const results: boolean[] = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) results.push(await check(project));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
