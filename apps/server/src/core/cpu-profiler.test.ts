import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profileOnSignal } from './cpu-profiler.ts';

const busyFor = (ms: number) => {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) x += Math.sqrt(x + 1);
  return x;
};

describe('CPU profile on SIGUSR2', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts on the first signal and writes a DevTools profile of the window on the second', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-cpu-profile-'));
    const lines: string[] = [];
    const stop = profileOnSignal(dir, { info: (m) => lines.push(m), error: (m) => lines.push(`error ${m}`) });
    try {
      process.kill(process.pid, 'SIGUSR2');
      await vi.waitFor(() => expect(lines.join('\n')).toContain('CPU profile started'));
      busyFor(50);
      process.kill(process.pid, 'SIGUSR2');
      await vi.waitFor(() => expect(lines.join('\n')).toContain('CPU profile written'));
    } finally {
      await stop();
    }
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^vigil-\d+-.*\.cpuprofile$/);
    const profile = JSON.parse(await readFile(path.join(dir, files[0] ?? ''), 'utf8')) as {
      nodes: { callFrame: { functionName: string } }[];
      samples: number[];
    };
    expect(profile.samples.length).toBeGreaterThan(0);
    expect(profile.nodes.some((n) => n.callFrame.functionName === 'busyFor')).toBe(true);
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([]);
  });

  it('writes a running profile at shutdown and stops listening', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-cpu-profile-'));
    const lines: string[] = [];
    const stop = profileOnSignal(dir, { info: (m) => lines.push(m), error: (m) => lines.push(`error ${m}`) });
    process.kill(process.pid, 'SIGUSR2');
    await vi.waitFor(() => expect(lines.join('\n')).toContain('CPU profile started'));
    await stop();
    expect(await readdir(dir)).toHaveLength(1);
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });
});
