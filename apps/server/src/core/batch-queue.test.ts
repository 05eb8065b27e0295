import { describe, expect, it } from 'vitest';
import { BacklogFull, BatchQueue } from './batch-queue.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('BatchQueue', () => {
  it('writes in batches and resolves each add after its batch is written', async () => {
    const batches: number[][] = [];
    const q = new BatchQueue<number>({ write: async (items) => void batches.push(items), maxBatch: 3, lingerMs: 5 });
    const done = [1, 2, 3, 4, 5].map((n) => q.add(n));
    await Promise.all(done);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(q.pending).toBe(0);
  });

  it('keeps items through failed writes and retries them in order', async () => {
    let failures = 2;
    const written: number[] = [];
    const errors: unknown[] = [];
    const q = new BatchQueue<number>({
      write: async (items) => {
        if (failures-- > 0) throw new Error('database down');
        written.push(...items);
      },
      lingerMs: 1,
      retryMs: 5,
      onError: (e) => errors.push(e),
    });
    let resolved = false;
    const p = q.add(1).then(() => (resolved = true));
    void q.add(2);
    await sleep(3);
    expect(resolved).toBe(false);
    await p;
    expect(written).toEqual([1, 2]);
    expect(errors).toHaveLength(2);
    expect(q.failing).toBe(false);
  });

  it('refuses beyond its bound instead of growing', async () => {
    const q = new BatchQueue<number>({ write: () => new Promise(() => undefined), maxPending: 2, lingerMs: 1 });
    void q.add(1);
    void q.add(2);
    await expect(q.add(3)).rejects.toBeInstanceOf(BacklogFull);
  });

  it('drains on demand and refuses after close', async () => {
    const written: number[] = [];
    const q = new BatchQueue<number>({ write: async (items) => void written.push(...items), lingerMs: 10_000 });
    void q.add(7);
    await q.close();
    expect(written).toEqual([7]);
    await expect(q.add(8)).rejects.toThrow(/stopping/);
  });

  it('close rejects what it could not write', async () => {
    const q = new BatchQueue<number>({
      write: () => Promise.reject(new Error('down')),
      lingerMs: 10_000,
    });
    const p = q.add(1);
    await q.close();
    await expect(p).rejects.toThrow(/stopped/);
  });
});
