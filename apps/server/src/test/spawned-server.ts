import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');

/** A real server process (npm start's entry) for tests that kill, restart or load it. */
export interface SpawnedServer {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Ends it with a signal and waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/**
 * Starts `apps/server/src/main.ts` with `env` over the test's environment (embedded defaults:
 * PGlite in `DATA_DIR`, the embedded broker) and waits until /readyz answers 200.
 */
export const spawnServer = async (
  env: Record<string, string>,
  options: { readyWithinMs?: number; /** Also appends what it prints to this file. */ logFile?: string } = {},
): Promise<SpawnedServer> => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      MQTT_URL: '',
      HOST: '127.0.0.1',
      VIGIL_DEMO: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const log = options.logFile ? fs.createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  const take = (d: Buffer) => {
    output += d.toString();
    log?.write(d);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  child.once('exit', () => log?.end());
  const end = Date.now() + (options.readyWithinMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    const ready = await fetch(`http://127.0.0.1:${env.PORT}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`server not ready: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
};
