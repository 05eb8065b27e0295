import { describe, expect, it } from 'vitest';
import { parseRange } from './download.route.ts';
import { inWindow } from './rollout-driver.ts';
import { assignStages, emptyCounts, failedTooOften, nextStep, rolloutCounts, rolloutOrder } from './rollout-rules.ts';

const counts = (values: Partial<ReturnType<typeof emptyCounts>>) => ({ ...emptyCounts(), ...values });

describe('rollout rules', () => {
  it('puts devices in stages by cumulative share, rounding up so a small first stage is never empty', () => {
    expect(assignStages(10, [5, 25, 100])).toEqual([0, 1, 1, 2, 2, 2, 2, 2, 2, 2]);
    expect(assignStages(1000, [5, 25, 100]).filter((s) => s === 0)).toHaveLength(50);
    expect(assignStages(1000, [5, 25, 100]).filter((s) => s === 1)).toHaveLength(200);
    expect(assignStages(3, [100])).toEqual([0, 0, 0]);
    expect(assignStages(0, [5, 100])).toEqual([]);
  });

  it('orders devices by a hash of their ID: stable, and not the order they were added in', () => {
    const devices = Array.from({ length: 50 }, (_, i) => ({ deviceId: `DEV-${String(i).padStart(3, '0')}` }));
    const once = rolloutOrder(devices).map((d) => d.deviceId);
    expect(rolloutOrder([...devices].reverse()).map((d) => d.deviceId)).toEqual(once);
    expect(once).not.toEqual(devices.map((d) => d.deviceId));
    expect([...once].sort()).toEqual(devices.map((d) => d.deviceId));
  });

  it('counts a rollout and each stage; sent, downloading and installing are in progress', () => {
    const { counts: total, stageCounts } = rolloutCounts(
      [10, 100],
      [
        { stage: 0, state: 'succeeded', n: 2 },
        { stage: 0, state: 'downloading', n: 1 },
        { stage: 1, state: 'sent', n: 3 },
        { stage: 1, state: 'deferred', n: 4 },
        { stage: 1, state: 'pending', n: 5 },
      ],
    );
    expect(total).toEqual(counts({ total: 15, succeeded: 2, inProgress: 4, deferred: 4, pending: 5 }));
    expect(stageCounts[0]).toMatchObject({ stage: 0, percent: 10, total: 3, inProgress: 1 });
    expect(stageCounts[1]).toMatchObject({ stage: 1, percent: 100, total: 12 });
  });

  it('fails a stage when its failures pass the threshold of its devices', () => {
    expect(failedTooOften(counts({ total: 5, succeeded: 4, failed: 1 }), 20)).toBe(false);
    expect(failedTooOften(counts({ total: 5, succeeded: 3, failed: 2 }), 20)).toBe(true);
    expect(failedTooOften(counts({ total: 9, inProgress: 9 }), 20)).toBe(false);
    expect(failedTooOften(counts({ total: 1, failed: 1 }), 100)).toBe(false);
    // Two early failures of a stage of 200 do not stop it; 41 do.
    expect(failedTooOften(counts({ total: 200, failed: 2, inProgress: 98 }), 20)).toBe(false);
    expect(failedTooOften(counts({ total: 200, failed: 41, succeeded: 59 }), 20)).toBe(true);
  });

  it('pauses, advances, waits or ends', () => {
    const stages = [counts({ succeeded: 2 }), counts({ pending: 3 })];
    const total = counts({ succeeded: 2, pending: 3 });
    expect(nextStep(0, stages, total, 20, 0)).toEqual({ kind: 'advance', to: 1 });
    expect(nextStep(0, stages, total, 20, 1)).toEqual({ kind: 'wait' });
    expect(nextStep(0, [counts({ total: 2, failed: 1, succeeded: 1 }), stages[1] ?? counts({})], total, 20, 0)).toEqual(
      {
        kind: 'pause',
      },
    );
    expect(nextStep(0, [counts({ inProgress: 1 }), stages[1] ?? counts({})], total, 20, 0)).toEqual({ kind: 'wait' });
    expect(nextStep(1, stages, total, 20, 0)).toEqual({ kind: 'wait' });
    expect(nextStep(1, [counts({ succeeded: 2 }), counts({ succeeded: 3 })], counts({ succeeded: 5 }), 20, 0)).toEqual({
      kind: 'done',
    });
  });

  it('reads sleep windows across midnight', () => {
    expect(inWindow(2 * 60, '21:00', '07:00')).toBe(true);
    expect(inWindow(21 * 60, '21:00', '07:00')).toBe(true);
    expect(inWindow(7 * 60, '21:00', '07:00')).toBe(false);
    expect(inWindow(12 * 60, '21:00', '07:00')).toBe(false);
    expect(inWindow(13 * 60, '12:30', '14:00')).toBe(true);
  });
});

describe('download ranges', () => {
  it('answers one byte range, a suffix, an open end; refuses what lies past the end', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=9-5', 100)).toBe('unsatisfiable');
    // Several ranges or another unit: the whole file.
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});
