import { describe, expect, it } from 'vitest';
import { hrv, MIN_NN_INTERVALS } from './hrv.ts';
import { beatSeries } from './series.ts';

/** Beats with the given intervals, one after another from second 0. */
function beatsOf(intervals: number[]) {
  const times: number[] = [];
  let t = 0;
  for (const rr of intervals) {
    t += rr / 1000;
    times.push(t);
  }
  return beatSeries(times, intervals);
}

describe('hrv', () => {
  it('gives SDNN and RMSSD of an alternating rhythm exactly', () => {
    // 900, 1000, 900, 1000 …: mean 950, SD 50, every successive difference 100. The first
    // interval has none before it to compare with, so 601 leave 600.
    const intervals = Array.from({ length: 601 }, (_, i) => (i % 2 === 0 ? 900 : 1000));
    const result = hrv(beatsOf(intervals));
    expect(result?.meanNn).toBeCloseTo(950, 6);
    expect(result?.sdnn).toBeCloseTo(50, 6);
    expect(result?.rmssd).toBeCloseTo(100, 6);
  });

  it('leaves out an ectopic beat and never takes a difference across it', () => {
    const steady = Array.from({ length: 400 }, () => 1000);
    const withEctopic = [...steady.slice(0, 200), 600, 1400, ...steady.slice(200)];
    const result = hrv(beatsOf(withEctopic));
    expect(result?.rmssd).toBe(0);
    expect(result?.sdnn).toBe(0);
    // 600 is > 20% from 1000, 1400 > 20% from 600, and the 1000 after it > 20% from 1400: three
    // dropped, and the very first interval has nothing to compare with.
    expect(result?.count).toBe(398);
  });

  it('ignores implausible intervals (missed or extra detections)', () => {
    const intervals = Array.from({ length: 500 }, (_, i) => (i === 100 ? 2600 : i === 300 ? 150 : 800));
    expect(hrv(beatsOf(intervals))?.sdnn).toBe(0);
  });

  it('answers null below five minutes of clean beats', () => {
    expect(hrv(beatsOf(Array.from({ length: MIN_NN_INTERVALS - 1 }, () => 1000)))).toBeNull();
    expect(hrv(beatsOf([]))).toBeNull();
  });

  it('keeps only the chosen epochs', () => {
    // First 10 minutes at 1000 ms, next 10 at alternating 800/1000: choose the first epochs only.
    const intervals = [
      ...Array.from({ length: 600 }, () => 1000),
      ...Array.from({ length: 660 }, (_, i) => (i % 2 ? 800 : 900)),
    ];
    const firstTenMinutes = Array.from({ length: 60 }, (_, e) => e < 20);
    const result = hrv(beatsOf(intervals), firstTenMinutes);
    expect(result?.rmssd).toBe(0);
    expect(result?.meanNn).toBe(1000);
  });
});
