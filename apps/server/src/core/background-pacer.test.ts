import { describe, expect, it } from 'vitest';
import { BackgroundPacer } from './background-pacer.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('the background pacer', () => {
  it('runs steps one at a time, in order, and rests in proportion to each', async () => {
    const pacer = new BackgroundPacer({ restRatio: 3 });
    const log: string[] = [];
    const step = (name: string) =>
      pacer.step(async () => {
        log.push(`${name}+`);
        await Promise.resolve();
        busy(20);
        log.push(`${name}-`);
        return name;
      });
    const started = performance.now();
    const done = await Promise.all([step('a'), step('b'), step('c')]);
    const elapsed = performance.now() - started;
    expect(done).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    // Three steps of 20 ms with two rests of ≥ 60 ms between them (the last rest follows c).
    expect(elapsed).toBeGreaterThanOrEqual(3 * 20 + 2 * 60 - 5);
  });

  it('lets other work in during a rest, and goes on after a failed step', async () => {
    const pacer = new BackgroundPacer({ restRatio: 2 });
    let between = 0;
    const first = pacer.step(async () => {
      busy(10);
      throw new Error('lost');
    });
    const second = pacer.step(async () => between);
    setTimeout(() => (between = 1), 1);
    await expect(first).rejects.toThrow('lost');
    expect(await second).toBe(1);
  });

  it('holds the next step back while the thread is busy with other work, for at most maxHoldMs', async () => {
    const waitFor = async (busyMs: number, maxHoldMs: number) => {
      const pacer = new BackgroundPacer({ restRatio: 1, busyShare: 0.75, maxHoldMs });
      // Other work keeping the thread busy for busyMs: 4 ms at a time, back to back.
      const loadEnds = performance.now() + busyMs;
      let stopped = false;
      const load = () => {
        if (stopped || performance.now() >= loadEnds) return;
        busy(4);
        setImmediate(load);
      };
      setImmediate(load);
      const asked = performance.now();
      await pacer.step(async () => busy(2));
      await pacer.step(async () => undefined);
      stopped = true;
      return performance.now() - asked;
    };
    // The load ends after 150 ms: the step ran after it, not during it.
    expect(await waitFor(150, 5_000)).toBeGreaterThanOrEqual(130);
    // A load that does not end holds the step back for maxHoldMs, then it runs anyway.
    const held = await waitFor(60_000, 200);
    expect(held).toBeGreaterThanOrEqual(190);
    expect(held).toBeLessThan(2_000);
  });

  it('rests only when something else wants the thread, when told to look', async () => {
    // Test files share a worker thread (decision 0023): how busy it is is told, not measured.
    const stepsWith = async (busyShare: number) => {
      const gauge = { mark: () => performance.eventLoopUtilization(), busySince: () => busyShare };
      const pacer = new BackgroundPacer({ restRatio: 20, idleShare: 0.2, gauge });
      const started = performance.now();
      for (let i = 0; i < 3; i++) await pacer.step(async () => busy(20));
      return performance.now() - started;
    };
    // Idle: no rest. Busy: two rests of 400 ms between the three steps.
    expect(await stepsWith(0)).toBeLessThan(3 * 20 + 500);
    expect(await stepsWith(0.5)).toBeGreaterThanOrEqual(3 * 20 + 2 * 400 - 5);
  });
});
