import type { LiveVitals } from '@vigil/contract/browser';
import { describe, expect, it, vi } from 'vitest';
import { VitalsStore } from './vitals-store.ts';

const vitals = (userId: number, heartRate: number): LiveVitals => ({
  userId,
  deviceId: `SLP-${userId}`,
  online: true,
  inBed: true,
  heartRate,
  breathRate: 15,
  move: 0,
  ts: 1_790_000_000,
  upgrading: false,
});
const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('VitalsStore', () => {
  it('follows the union of what its consumers watch, told once per tick', async () => {
    const store = new VitalsStore();
    const follow = vi.fn();
    store.connect(follow);
    expect(follow).toHaveBeenLastCalledWith([]);
    store.want('cards', [5, 3]);
    store.want('list', [3, 8]);
    await tick();
    expect(follow).toHaveBeenCalledTimes(2);
    expect(follow).toHaveBeenLastCalledWith([3, 5, 8]);
    store.drop('cards');
    await tick();
    expect(follow).toHaveBeenLastCalledWith([3, 8]);
  });

  it('keeps the latest pushed vitals, with when they came, and forgets those nobody watches', async () => {
    let now = 1000;
    const store = new VitalsStore(() => now);
    store.want('list', [3, 8]);
    const frames = vi.fn();
    store.onFrame(frames);
    const before = store.snapshot();
    store.receive([vitals(3, 70)]);
    now = 2000;
    store.receive([vitals(3, 72), vitals(8, 60)]);
    expect(store.snapshot()).not.toBe(before);
    expect(store.snapshot().get(3)).toEqual({ vitals: vitals(3, 72), receivedAt: 2000 });
    expect(store.snapshot().get(8)?.receivedAt).toBe(2000);
    expect(frames).toHaveBeenCalledTimes(2);
    store.want('list', [8]);
    await tick();
    expect([...store.snapshot().keys()]).toEqual([8]);
  });
});
