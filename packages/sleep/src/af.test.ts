import { describe, expect, it } from 'vitest';
import { detectAf, minuteEntropy, smoothMinutes } from './af.ts';
import { UNKNOWN, type BeatSeries } from './series.ts';
import { seeded } from './validate/seeded.ts';

/** Beats from a rule giving each interval (ms) from the time (s) it starts, until `seconds`. */
function rhythm(seconds: number, nextInterval: (time: number, beat: number) => number, start = 0): BeatSeries {
  const t: number[] = [];
  const rr: number[] = [];
  let time = start;
  for (let beat = 0; ; beat++) {
    const interval = nextInterval(time, beat);
    time += interval / 1000;
    if (time >= seconds) break;
    t.push(time);
    rr.push(beat === 0 ? Number.NaN : interval);
  }
  return { t: Float64Array.from(t), rr: Float32Array.from(rr) };
}

const random = seeded(11);
/** Sinus rhythm: 900 ms with breathing-driven variation and a few ms of noise. */
const sinus = (time: number): number => 900 + 30 * Math.sin((2 * Math.PI * time) / 4) + 10 * (random() - 0.5);
/** AF: intervals drawn independently between 450 and 1050 ms. */
const fibrillation = (): number => 450 + 600 * random();

const judged = (minutes: Uint8Array): number[] => [...minutes].filter((answer) => answer !== UNKNOWN);
const hour = 3600;

describe('detectAf on constructed rhythms', () => {
  it('calls a regular sinus rhythm non-AF in every minute', () => {
    const result = detectAf(rhythm(hour, sinus), hour);
    expect(result.minutes).toHaveLength(60);
    expect(judged(result.minutes)).toHaveLength(60);
    expect(judged(result.minutes).every((answer) => answer === 0)).toBe(true);
    expect(result.burden).toBe(0);
  });

  it('calls independent random intervals AF in every minute', () => {
    const result = detectAf(rhythm(hour, fibrillation), hour);
    expect(judged(result.minutes)).toHaveLength(60);
    expect(judged(result.minutes).every((answer) => answer === 1)).toBe(true);
    expect(result.burden).toBe(1);
  });

  it('does not take a slow cyclic heart-rate variation (every 60 s, ±15 %) for AF', () => {
    const cyclic = (time: number): number => 900 + 135 * Math.sin((2 * Math.PI * time) / 60);
    expect(detectAf(rhythm(hour, cyclic), hour).burden).toBe(0);
  });

  it('does not take ventricular bigeminy or trigeminy for AF', () => {
    const bigeminy = (_: number, beat: number): number => (beat % 2 === 0 ? 560 : 1240);
    const trigeminy = (_: number, beat: number): number => (beat % 3 === 0 ? 560 : beat % 3 === 1 ? 1240 : 900);
    expect(detectAf(rhythm(hour, bigeminy), hour).burden).toBe(0);
    expect(detectAf(rhythm(hour, trigeminy), hour).burden).toBe(0);
  });

  it('does not take sinus rhythm with an occasional premature beat for AF', () => {
    const ectopic = (time: number, beat: number): number =>
      beat % 12 === 5 ? 600 : beat % 12 === 6 ? 1200 : sinus(time);
    expect(detectAf(rhythm(hour, ectopic), hour).burden).toBe(0);
  });

  it('finds a 30-minute paroxysm between sinus rhythm, to within the smoothing at its edges', () => {
    const paroxysm = (time: number): number => (time >= 1800 && time < 3600 ? fibrillation() : sinus(time));
    const result = detectAf(rhythm(5400, paroxysm), 5400);
    for (let m = 0; m < 90; m++) {
      if (m < 28 || m >= 62) expect(result.minutes[m], `minute ${m}`).toBe(0);
      if (m >= 32 && m < 58) expect(result.minutes[m], `minute ${m}`).toBe(1);
    }
    expect(result.burden).toBeCloseTo(1 / 3, 1);
  });
});

describe('detectAf where it cannot judge', () => {
  it('answers UNKNOWN in a 10-minute gap, and judges on either side of it', () => {
    const before = rhythm(1800, fibrillation);
    const after = rhythm(hour, fibrillation, 2400);
    const beats: BeatSeries = {
      t: Float64Array.from([...before.t, ...after.t]),
      rr: Float32Array.from([...before.rr, ...after.rr]),
    };
    const result = detectAf(beats, hour);
    for (let m = 30; m < 40; m++) expect(result.minutes[m], `minute ${m}`).toBe(UNKNOWN);
    expect(result.minutes.slice(0, 29).every((answer) => answer === 1)).toBe(true);
    expect(result.minutes.slice(41).every((answer) => answer === 1)).toBe(true);
    expect(result.burden).toBe(1);
  });

  it('answers UNKNOWN everywhere for no beats, one beat, or only implausible intervals', () => {
    const empty = detectAf({ t: new Float64Array(), rr: new Float32Array() }, 600);
    expect(empty.minutes).toEqual(new Uint8Array(10).fill(UNKNOWN));
    expect(empty.burden).toBeNull();

    const one = detectAf({ t: Float64Array.of(12), rr: Float32Array.of(800) }, 600);
    expect(one.minutes).toEqual(new Uint8Array(10).fill(UNKNOWN));
    expect(one.burden).toBeNull();

    const noise = rhythm(600, () => 250);
    expect(detectAf(noise, 600).minutes).toEqual(new Uint8Array(10).fill(UNKNOWN));

    const gaps = rhythm(600, () => 800);
    gaps.rr.fill(Number.NaN);
    expect(detectAf(gaps, 600).burden).toBeNull();
  });

  it('gives ceil(seconds / 60) minutes, none for an empty night', () => {
    const beats = rhythm(121, sinus);
    expect(detectAf(beats, 121).minutes).toHaveLength(3);
    expect(detectAf(beats, 0).minutes).toHaveLength(0);
    expect(detectAf(beats, 0).burden).toBeNull();
    expect(detectAf(beats, Number.NaN).minutes).toHaveLength(0);
  });

  it('ignores missed detections (implausibly long intervals) instead of calling them AF', () => {
    const withMisses = rhythm(hour, (time, beat) => (beat % 50 === 25 ? 2400 : sinus(time)));
    expect(detectAf(withMisses, hour).burden).toBe(0);
  });
});

describe('detectAf contract', () => {
  it('is deterministic and leaves its input unchanged', () => {
    const beats = rhythm(hour, (time) => (time < 1800 ? sinus(time) : fibrillation()));
    const copy: BeatSeries = { t: beats.t.slice(), rr: beats.rr.slice() };
    const first = detectAf(beats, hour);
    const second = detectAf(beats, hour);
    expect(second).toEqual(first);
    expect(beats).toEqual(copy);
  });

  it('measures a wider ΔRR spread as more entropy', () => {
    const narrow = minuteEntropy(rhythm(600, sinus), 600);
    const wide = minuteEntropy(rhythm(600, fibrillation), 600);
    for (let m = 0; m < 10; m++) expect(wide[m]).toBeGreaterThan((narrow[m] ?? Infinity) + 1);
  });

  it('smooths over judged neighbours only, keeping unjudged minutes unjudged', () => {
    const smoothed = smoothMinutes(Float64Array.of(1, Number.NaN, 3, 5, Number.NaN), 1);
    expect([...smoothed]).toEqual([1, Number.NaN, 4, 4, Number.NaN]);
  });
});
