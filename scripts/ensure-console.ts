import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONSOLE_DIR } from '../apps/server/src/config.ts';

// `npm start` in a development clone: build the web console once, before the server starts,
// so no server instance ever builds it. A deployment ships a built console (CONSOLE_DIR).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// A configured CONSOLE_DIR is the deployment's to provide; only the clone's own is built here.
if (!process.env.CONSOLE_DIR && !fs.existsSync(path.join(DEFAULT_CONSOLE_DIR, 'index.html'))) {
  console.log('Building the web console once (about a minute)…');
  const build = spawnSync('npm', ['run', 'build:web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The web console build failed; the server starts without it (see the output above).');
  }
}
