import type { LiveVitals, VitalsMinute } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { appendPoint, chartPoints, pointOf, type VitalsPoint } from './vitals-trail.ts';

const T0 = 1_795_800_000;
const minute = (offset: number, heartRate: number | null, breathRate: number | null = 14): VitalsMinute => ({
  ts: T0 + offset * 60,
  heartRate,
  breathRate,
  inBedSeconds: 60,
});
const sample = (ts: number, heartRate: number | null, breathRate: number | null = 15): VitalsPoint => ({
  ts,
  heartRate,
  breathRate,
});
const row = (over: Partial<LiveVitals>): LiveVitals => ({
  userId: 3,
  deviceId: 'SLP-3',
  online: true,
  inBed: true,
  heartRate: 66,
  breathRate: 15,
  move: 0,
  ts: T0,
  upgrading: false,
  ...over,
});
const ms = (seconds: number) => seconds * 1000;

describe('the line of a rate', () => {
  it('never runs down to the axis at the live edge: a reading of 0 is none measured, a gap', () => {
    const history = [minute(0, 62), minute(1, 63)];
    const trail = [sample(T0 + 125, 66), sample(T0 + 126, 0), sample(T0 + 127, 0, 0)];
    expect(chartPoints(history, trail, 'heartRate')).toEqual([
      [ms(T0), 62],
      [ms(T0 + 60), 63],
      [ms(T0 + 125), 66],
      [ms(T0 + 126), null],
      [ms(T0 + 127), null],
    ]);
    expect(chartPoints(history, trail, 'breathRate').at(-1)).toEqual([ms(T0 + 127), null]);
    // A stored minute with an average of 0 (none measured) is a gap too.
    expect(chartPoints([minute(0, 0)], [], 'heartRate')).toEqual([[ms(T0), null]]);
  });

  it('breaks across minutes with no row and a pause in the samples, never drawing across them', () => {
    const history = [minute(0, 62), minute(1, 63), minute(5, 64)];
    const trail = [sample(T0 + 360, 66), sample(T0 + 361, 67), sample(T0 + 420, 68)];
    expect(chartPoints(history, trail, 'heartRate')).toEqual([
      [ms(T0), 62],
      [ms(T0 + 60), 63],
      [ms(T0 + 61), null],
      [ms(T0 + 300), 64],
      // The minute being summed and the one being written: no break from the last minute to the first sample.
      [ms(T0 + 360), 66],
      [ms(T0 + 361), 67],
      [ms(T0 + 362), null],
      [ms(T0 + 420), 68],
    ]);
  });

  it('ends the line where a monitor went offline, and takes the samples after the last minute only', () => {
    expect(pointOf(row({}))).toEqual(sample(T0, 66, 15));
    expect(pointOf(row({ online: false, heartRate: null, breathRate: null }))).toEqual(sample(T0 + 1, null, null));
    expect(pointOf(row({ ts: null }))).toBeNull();
    let trail: readonly VitalsPoint[] = [];
    for (const r of [row({ ts: T0 - 5 }), row({ ts: T0 }), row({ ts: T0, online: false }), row({ ts: T0 + 90 })]) {
      const point = pointOf(r);
      if (point) trail = appendPoint(trail, point);
    }
    expect(chartPoints([], trail, 'heartRate')).toEqual([
      [ms(T0 - 5), 66],
      [ms(T0), 66],
      [ms(T0 + 1), null],
      [ms(T0 + 90), 66],
    ]);
    expect(chartPoints([minute(0, 60)], [sample(T0 - 1, 70), sample(T0 + 30, 71)], 'heartRate')).toEqual([
      [ms(T0), 60],
      [ms(T0 + 30), 71],
    ]);
  });
});
