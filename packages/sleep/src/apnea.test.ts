import { describe, expect, it } from 'vitest';
import { AHI_PER_APNEA_SHARE, apneaFeatures, detectApnea, estimateAhi, HR_FEATURES } from './apnea.ts';
import { UNKNOWN, type BeatSeries } from './series.ts';
import { seeded as random } from './validate/seeded.ts';

const HOUR = 3600;

/** Quiet sleep: a steady rate with breathing-driven ripple and a little noise. */
function steadyRate(seconds: number, seed = 1): Float32Array {
  const next = random(seed);
  return Float32Array.from({ length: seconds }, (_, t) => 60 + 2 * Math.sin(2 * Math.PI * 0.25 * t) + (next() - 0.5));
}

/** Obstructive events every 60 s: the rate sags for 40 s while breathing stops, surges when it
 * resumes, then settles — cyclic variation of heart rate. */
function cyclicRate(seconds: number, seed = 2, period = 60): Float32Array {
  const next = random(seed);
  return Float32Array.from({ length: seconds }, (_, t) => {
    const phase = (t % period) / period;
    const rate =
      phase < 2 / 3
        ? 58 - 6 * phase
        : phase < 0.8
          ? 54 + 18 * ((phase - 2 / 3) / (0.8 - 2 / 3))
          : 72 - 14 * ((phase - 0.8) / 0.2);
    return rate + (next() - 0.5);
  });
}

/** Beats that follow a heart rate (one beat every 60/hr seconds). */
function beatsFrom(hr: Float32Array): BeatSeries {
  const times: number[] = [];
  const intervals: number[] = [];
  let t = 0.5;
  while (t < hr.length - 1) {
    const rr = 60 / (hr[Math.floor(t)] ?? 60);
    t += rr;
    times.push(t);
    intervals.push(rr * 1000);
  }
  return { t: Float64Array.from(times), rr: Float32Array.from(intervals) };
}

const count = (minutes: Uint8Array, value: number): number => minutes.filter((v) => v === value).length;

describe('detectApnea on constructed nights', () => {
  it('calls a steady night normal and gives a normal AHI', () => {
    const result = detectApnea({ hr: steadyRate(4 * HOUR) });
    expect(result.minutes.length).toBe(240);
    expect(count(result.minutes, 1)).toBe(0);
    expect(result.events).toEqual([]);
    expect(result.ahi).not.toBeNull();
    expect(result.ahi ?? Infinity).toBeLessThan(5);
  });

  it('calls cyclic heart-rate variation every 60 s apnea, with a severe AHI', () => {
    const result = detectApnea({ hr: cyclicRate(4 * HOUR) });
    expect(count(result.minutes, 1)).toBeGreaterThan(0.95 * 240);
    expect(result.ahi ?? 0).toBeGreaterThanOrEqual(30);
    expect(result.ahi ?? Infinity).toBeLessThanOrEqual(AHI_PER_APNEA_SHARE);
  });

  it('finds cycles of 40 s and 90 s too (the CVHR band)', () => {
    for (const period of [40, 90]) {
      const result = detectApnea({ hr: cyclicRate(2 * HOUR, 3, period) });
      expect(count(result.minutes, 1), `period ${period} s`).toBeGreaterThan(0.9 * 120);
    }
  });

  it('places the episode where the cycles are: normal hour, apnea hour, normal hour', () => {
    const quiet = steadyRate(HOUR, 4);
    const hr = new Float32Array(3 * HOUR);
    hr.set(quiet, 0);
    hr.set(cyclicRate(HOUR, 5), HOUR);
    hr.set(steadyRate(HOUR, 6), 2 * HOUR);
    const result = detectApnea({ hr });
    const first = result.minutes.subarray(0, 55);
    const middle = result.minutes.subarray(65, 115);
    const last = result.minutes.subarray(125, 180);
    expect(count(first, 1)).toBe(0);
    expect(count(middle, 1)).toBe(middle.length);
    expect(count(last, 1)).toBe(0);
    // One event covering the apnea hour, give or take the smoothing at its edges.
    expect(result.events.length).toBe(1);
    const [event] = result.events;
    expect(Math.abs((event?.start ?? 0) - HOUR)).toBeLessThanOrEqual(5 * 60);
    expect(Math.abs((event?.end ?? 0) - 2 * HOUR)).toBeLessThanOrEqual(5 * 60);
    // AHI ≈ scale × a third of the night.
    expect(result.ahi ?? 0).toBeGreaterThan(0.25 * AHI_PER_APNEA_SHARE);
    expect(result.ahi ?? Infinity).toBeLessThan(0.45 * AHI_PER_APNEA_SHARE);
  });

  it('agrees with and without beats on clear nights', () => {
    const cyclic = cyclicRate(2 * HOUR, 7);
    const steady = steadyRate(2 * HOUR, 8);
    expect(count(detectApnea({ hr: cyclic, beats: beatsFrom(cyclic) }).minutes, 1)).toBeGreaterThan(0.9 * 120);
    expect(count(detectApnea({ hr: steady, beats: beatsFrom(steady) }).minutes, 1)).toBe(0);
  });

  it('events are the runs of apnea minutes, [start, end) in seconds', () => {
    const hr = new Float32Array(3 * HOUR);
    hr.set(cyclicRate(HOUR, 9), 0);
    hr.set(steadyRate(HOUR, 10), HOUR);
    hr.set(cyclicRate(HOUR, 11), 2 * HOUR);
    const { minutes, events } = detectApnea({ hr });
    expect(events.length).toBe(2);
    const covered = new Uint8Array(minutes.length);
    for (const { start, end } of events) {
      expect(start % 60).toBe(0);
      expect(end).toBeGreaterThan(start);
      expect(end).toBeLessThanOrEqual(hr.length);
      for (let m = start / 60; m * 60 < end; m++) covered[m] = 1;
    }
    minutes.forEach((v, m) => expect(covered[m], `minute ${m}`).toBe(v === 1 ? 1 : 0));
  });
});

describe('gaps and edge cases', () => {
  it('answers nothing for an empty night', () => {
    const result = detectApnea({ hr: new Float32Array(0) });
    expect(result.minutes.length).toBe(0);
    expect(result.events).toEqual([]);
    expect(result.ahi).toBeNull();
  });

  it('answers UNKNOWN for a night of gaps, with or without beats', () => {
    const hr = new Float32Array(2 * HOUR).fill(Number.NaN);
    for (const beats of [undefined, { t: new Float64Array(0), rr: new Float32Array(0) }]) {
      const result = detectApnea({ hr, beats });
      expect(count(result.minutes, UNKNOWN)).toBe(120);
      expect(result.events).toEqual([]);
      expect(result.ahi).toBeNull();
    }
  });

  it('copes with a single beat', () => {
    const hr = cyclicRate(2 * HOUR, 12);
    const one: BeatSeries = { t: Float64Array.of(100), rr: Float32Array.of(900) };
    expect(detectApnea({ hr, beats: one })).toEqual(detectApnea({ hr }));
  });

  it('answers UNKNOWN inside a long gap, never a made-up 0 or 1', () => {
    const hr = cyclicRate(3 * HOUR, 13);
    hr.fill(Number.NaN, 60 * 60, 80 * 60); // minutes 60–79 missing
    const result = detectApnea({ hr });
    for (let m = 60; m < 80; m++) expect(result.minutes[m], `minute ${m}`).toBe(UNKNOWN);
    expect(count(result.minutes, 1)).toBeGreaterThan(0.9 * 160);
    for (const { start, end } of result.events) expect(end <= 60 * 60 || start >= 80 * 60).toBe(true);
  });

  it('bridges a few missing seconds', () => {
    const hr = steadyRate(2 * HOUR, 14);
    for (let t = 30; t < hr.length; t += 60) hr.fill(Number.NaN, t, t + 8);
    const result = detectApnea({ hr });
    expect(count(result.minutes, UNKNOWN)).toBe(0);
    expect(count(result.minutes, 1)).toBe(0);
  });

  it('gives no AHI under an hour of signal, but still answers the minutes', () => {
    const result = detectApnea({ hr: cyclicRate(50 * 60, 15) });
    expect(result.minutes.length).toBe(50);
    expect(count(result.minutes, 1)).toBeGreaterThan(40);
    expect(result.ahi).toBeNull();
  });

  it('has one minute per started minute', () => {
    expect(detectApnea({ hr: steadyRate(125) }).minutes.length).toBe(3);
    expect(apneaFeatures({ hr: steadyRate(125) }).hr.length).toBe(3 * HR_FEATURES.length);
  });

  it('treats zero or absurd heart rates as gaps', () => {
    const hr = steadyRate(2 * HOUR, 20);
    hr.fill(0, 30 * 60, 45 * 60);
    hr.fill(Infinity, 60 * 60, 61 * 60);
    hr.fill(-5, 90 * 60, 100 * 60);
    const result = detectApnea({ hr });
    for (let m = 30; m < 45; m++) expect(result.minutes[m], `minute ${m}`).toBe(UNKNOWN);
    for (let m = 90; m < 100; m++) expect(result.minutes[m], `minute ${m}`).toBe(UNKNOWN);
    expect(count(result.minutes, 1)).toBe(0);
    expect(result.ahi).not.toBeNull();
    expect(Number.isFinite(result.ahi ?? Number.NaN)).toBe(true);
  });

  it('ignores implausible heart rates and intervals', () => {
    const hr = cyclicRate(2 * HOUR, 16);
    const beats = beatsFrom(hr);
    for (let i = 0; i < beats.rr.length; i += 50) beats.rr[i] = i % 100 === 0 ? 5000 : Number.NaN;
    const result = detectApnea({ hr, beats });
    expect(count(result.minutes, 1)).toBeGreaterThan(0.9 * 120);
  });
});

describe('estimateAhi', () => {
  it('scales the share of judged minutes at or over the threshold', () => {
    const p = new Float64Array(120).fill(0.1);
    p.fill(0.9, 0, 30); // a quarter
    p.fill(Number.NaN, 100); // not judged
    expect(estimateAhi(p, 0.4, 80)).toBeCloseTo((80 * 30) / 100, 6);
    expect(estimateAhi(p.subarray(0, 59), 0.4, 80)).toBeNull();
  });
});

describe('determinism', () => {
  it('gives identical answers for identical input', () => {
    const hr = cyclicRate(3 * HOUR, 17);
    hr.set(steadyRate(HOUR, 18), HOUR);
    const beats = beatsFrom(hr);
    const a = detectApnea({ hr, beats });
    const b = detectApnea({ hr: hr.slice(), beats: { t: beats.t.slice(), rr: beats.rr.slice() } });
    expect(b).toEqual(a);
  });

  it('does not change its input', () => {
    const hr = cyclicRate(HOUR, 19);
    hr[100] = Number.NaN;
    const copy = hr.slice();
    detectApnea({ hr });
    expect(Array.from(hr)).toEqual(Array.from(copy));
  });
});
