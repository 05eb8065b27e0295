import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm start` in a development clone: build the web console once, before the server starts,
// so no server instance ever builds it. A deployment ships a built console (CONSOLE_DIR).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const configured = process.env.CONSOLE_DIR;
const dist = configured ? path.resolve(configured) : path.join(root, 'apps/web/dist');

if (!fs.existsSync(path.join(dist, 'index.html')) && !configured) {
  console.log('Building the web console once (about a minute)…');
  const build = spawnSync('npm', ['run', 'build:web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The web console build failed; the server starts without it (see the output above).');
  }
}
