import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

interface ProfilerLog {
  info: (message: string) => void;
  error: (message: string) => void;
}

/**
 * CPU profiles of a running server, on demand: the first SIGUSR2 starts the V8 sampling
 * profiler, the next one writes `vigil-<pid>-<time>.cpuprofile` into `dir` (open it in Chrome
 * DevTools or speedscope). A profile covers only the window an operator chose, not start-up,
 * which `node --cpu-prof` would mix in. Returns the function that stops listening (and writes
 * a running profile), for shutdown.
 */
export const profileOnSignal = (dir: string, log: ProfilerLog): (() => Promise<void>) => {
  const session = new Session();
  session.connect();
  let running = false;
  let busy: Promise<void> = Promise.resolve();

  const start = async () => {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
    running = true;
    log.info(`CPU profile started; send SIGUSR2 again to write it to ${dir}`);
  };
  const write = async () => {
    const { profile } = await session.post('Profiler.stop');
    running = false;
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `vigil-${process.pid}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    await writeFile(file, JSON.stringify(profile));
    log.info(`CPU profile written: ${file}`);
  };
  const toggle = () => {
    busy = busy
      .then(() => (running ? write() : start()))
      .catch((error: unknown) => log.error(`CPU profile failed: ${String(error)}`));
  };
  process.on('SIGUSR2', toggle);
  return async () => {
    process.off('SIGUSR2', toggle);
    await busy;
    if (running) await write().catch((error: unknown) => log.error(`CPU profile failed: ${String(error)}`));
    session.disconnect();
  };
};
