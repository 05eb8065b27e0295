import { describe, expect, it } from 'vitest';
import { BackgroundPacer } from './background-pacer.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('the background pacer', () => {
  it('runs steps one at a time, in order, and rests in proportion to each', async () => {
    const pacer = new BackgroundPacer(3);
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
    const pacer = new BackgroundPacer(2);
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
});
