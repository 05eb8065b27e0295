import { describe, expect, it } from 'vitest';
import { EPOCH_SECONDS, Stage, UNKNOWN, type BeatSeries } from './series.ts';
import { MIN_NIGHT_EPOCHS, movementEvidence, nightFeatures, stageSleep } from './staging.ts';
import { seeded as random } from './validate/seeded.ts';

/** How the heart behaves in a stretch of the constructed night. */
interface Stretch {
  minutes: number;
  /** Mean rate (bpm). */
  bpm: number;
  /** Breathing-linked swing of the intervals (ms): large when the vagal brake is on (sleep). */
  breathingMs: number;
  /** Cyclic variation of the rate every 60 s (bpm), as obstructive events leave it. */
  cycleBpm: number;
  /** Random second-to-second wander of the rate (bpm). */
  wanderBpm: number;
}

const WAKE: Stretch = { minutes: 0, bpm: 78, breathingMs: 6, cycleBpm: 0, wanderBpm: 3 };
const LIGHT: Stretch = { minutes: 0, bpm: 62, breathingMs: 35, cycleBpm: 5, wanderBpm: 0.5 };
const DEEP: Stretch = { minutes: 0, bpm: 58, breathingMs: 35, cycleBpm: 0, wanderBpm: 0.1 };
const stretch = (kind: Stretch, minutes: number): Stretch => ({ ...kind, minutes });

/** Beats and the 1-Hz rate of a night made of stretches; the rate is the median interval of
 * ±2.5 s, as the datasets derive it. */
function constructNight(stretches: Stretch[], seed = 1): { hr: Float32Array; beats: BeatSeries } {
  const next = random(seed);
  const seconds = stretches.reduce((s, part) => s + part.minutes * 60, 0);
  const at = (t: number): Stretch => {
    let end = 0;
    for (const part of stretches) {
      end += part.minutes * 60;
      if (t < end) return part;
    }
    return stretches[stretches.length - 1]!;
  };
  const times: number[] = [];
  const intervals: number[] = [];
  let wander = 0;
  let t = 0.5;
  while (t < seconds) {
    const part = at(t);
    wander = 0.98 * wander + part.wanderBpm * 0.2 * (2 * next() - 1);
    const bpm = part.bpm + part.cycleBpm * Math.sin((2 * Math.PI * t) / 60) + wander;
    const rr = 60000 / bpm + part.breathingMs * Math.sin((2 * Math.PI * t) / 4) + 3 * (2 * next() - 1);
    t += rr / 1000;
    times.push(t);
    intervals.push(Math.round(rr));
  }
  const hr = new Float32Array(seconds).fill(Number.NaN);
  let from = 0;
  for (let s = 0; s < seconds; s++) {
    while (from < times.length && times[from]! <= s - 2.5) from++;
    const near: number[] = [];
    for (let i = from; i < times.length && times[i]! <= s + 2.5; i++) near.push(intervals[i]!);
    if (near.length < 2) continue;
    near.sort((a, b) => a - b);
    hr[s] = Math.round(600000 / near[Math.floor(near.length / 2)]!) / 10;
  }
  return { hr, beats: { t: Float64Array.from(times), rr: Float32Array.from(intervals) } };
}

/** Share of the epochs in [fromMinute, toMinute) given one of `stages`. */
function share(hypnogram: Uint8Array, fromMinute: number, toMinute: number, stages: number[]): number {
  const from = (fromMinute * 60) / EPOCH_SECONDS;
  const to = (toMinute * 60) / EPOCH_SECONDS;
  let hits = 0;
  for (let e = from; e < to; e++) if (stages.includes(hypnogram[e] ?? -1)) hits++;
  return hits / (to - from);
}

const SLEEP = [Stage.rem, Stage.light, Stage.deep];

describe('stageSleep: edge cases', () => {
  it('gives an empty hypnogram for an empty night', () => {
    expect(stageSleep({ hr: new Float32Array(0) })).toEqual(new Uint8Array(0));
  });

  it('has one entry per started 30-s epoch', () => {
    const { hr } = constructNight([stretch(LIGHT, 61)]);
    expect(stageSleep({ hr: hr.subarray(0, 3601) }).length).toBe(121);
  });

  it('answers UNKNOWN everywhere when every second is a gap', () => {
    const out = stageSleep({ hr: new Float32Array(3600).fill(Number.NaN) });
    expect(out.length).toBe(120);
    expect(out.every((stage) => stage === UNKNOWN)).toBe(true);
  });

  it('answers UNKNOWN for a night too short to measure against itself', () => {
    const { hr, beats } = constructNight([stretch(LIGHT, 60)]);
    const short = new Float32Array(3600).fill(Number.NaN);
    short.set(hr.subarray(0, (MIN_NIGHT_EPOCHS - 1) * EPOCH_SECONDS));
    expect(stageSleep({ hr: short, beats }).every((stage) => stage === UNKNOWN)).toBe(true);
  });

  it('answers UNKNOWN in a gap and a stage around it', () => {
    const { hr, beats } = constructNight([stretch(LIGHT, 120), stretch(WAKE, 30), stretch(LIGHT, 90)]);
    hr.fill(Number.NaN, 60 * 60, 70 * 60); // ten minutes without signal
    const out = stageSleep({ hr, beats });
    expect(share(out, 60, 70, [UNKNOWN])).toBe(1);
    expect(share(out, 0, 60, [UNKNOWN])).toBe(0);
    expect(share(out, 70, 240, [UNKNOWN])).toBe(0);
  });

  it('copes with a single beat (falls back to heart rate alone)', () => {
    const { hr } = constructNight([stretch(LIGHT, 120), stretch(WAKE, 30), stretch(LIGHT, 90)]);
    const one = { t: Float64Array.of(10), rr: Float32Array.of(900) };
    expect(stageSleep({ hr, beats: one })).toEqual(stageSleep({ hr }));
  });

  it('ignores implausible intervals and beats past the end', () => {
    const night = constructNight([stretch(LIGHT, 120), stretch(WAKE, 30), stretch(LIGHT, 90)]);
    const t = Float64Array.from([...night.beats.t, 20000, 20001]);
    const rr = Float32Array.from([...night.beats.rr, 5000, 900]);
    const rrBroken = rr.map((v, i) => (i % 97 === 0 ? 150 : v)); // a few extra detections
    const out = stageSleep({ hr: night.hr, beats: { t, rr: rrBroken } });
    expect(out.length).toBe(480);
    expect(share(out, 0, 240, [UNKNOWN])).toBe(0);
  });

  it('is deterministic and leaves its input alone', () => {
    const night = constructNight([stretch(LIGHT, 120), stretch(WAKE, 30), stretch(DEEP, 40), stretch(LIGHT, 60)]);
    const hrCopy = night.hr.slice();
    const rrCopy = night.beats.rr.slice();
    const first = stageSleep(night);
    expect(stageSleep(night)).toEqual(first);
    expect(night.hr).toEqual(hrCopy);
    expect(night.beats.rr).toEqual(rrCopy);
  });
});

describe('stageSleep: constructed nights with known answers', () => {
  // Light sleep with obstructive cycles, a 40-minute awakening (faster rate, little breathing
  // swing), a steady deep stretch, light again.
  const plan = [stretch(LIGHT, 90), stretch(WAKE, 40), stretch(LIGHT, 60), stretch(DEEP, 50), stretch(LIGHT, 120)];
  const night = constructNight(plan);

  it('calls the awakening wake and the sleep around it sleep', () => {
    const out = stageSleep(night);
    expect(share(out, 92, 128, [Stage.wake])).toBeGreaterThan(0.8);
    expect(share(out, 0, 88, SLEEP)).toBeGreaterThan(0.8);
    expect(share(out, 135, 360, SLEEP)).toBeGreaterThan(0.8);
  });

  it('finds the awakening from heart rate alone too', () => {
    const out = stageSleep({ hr: night.hr });
    expect(share(out, 92, 128, [Stage.wake])).toBeGreaterThan(0.7);
    expect(share(out, 0, 88, SLEEP)).toBeGreaterThan(0.7);
  });

  it('calls the steady stretch deep, and the cycling light sleep seldom deep', () => {
    const out = stageSleep(night);
    expect(share(out, 192, 238, [Stage.deep])).toBeGreaterThan(0.7);
    expect(share(out, 0, 88, [Stage.deep]) + share(out, 245, 360, [Stage.deep])).toBeLessThan(0.3);
  });

  it("keeps its answers under a bed sensor's noise: ±3 bpm on the rate, ±30 ms on the intervals", () => {
    const next = random(11);
    const noisy = {
      hr: night.hr.map((bpm) => bpm + 3 * (2 * next() - 1)),
      beats: { t: night.beats.t, rr: night.beats.rr.map((rr) => rr + 30 * (2 * next() - 1)) },
    };
    const out = stageSleep(noisy);
    expect(share(out, 92, 128, [Stage.wake])).toBeGreaterThan(0.8);
    expect(share(out, 192, 238, [Stage.deep])).toBeGreaterThan(0.7);
    expect(share(out, 0, 88, SLEEP)).toBeGreaterThan(0.8);
  });

  it('reads a lost breathing swing at an unchanged rate as REM, which heart rate alone cannot see', () => {
    // The vagal brake released without the rate rising: RMSSD falls, SDNN / RMSSD rises.
    const quiet = { ...LIGHT, breathingMs: 6 };
    const steady = constructNight([stretch(LIGHT, 120), stretch(quiet, 40), stretch(LIGHT, 120)]);
    expect(share(stageSleep(steady), 122, 158, [Stage.rem])).toBeGreaterThan(0.7);
    expect(share(stageSleep(steady), 122, 158, [Stage.wake])).toBe(0);
    expect(share(stageSleep({ hr: steady.hr }), 122, 158, [Stage.rem])).toBe(0);
  });
});

describe('stageSleep: movement from the bed sensor', () => {
  // A night that the heart alone calls asleep throughout: steady light sleep.
  const night = constructNight([stretch(LIGHT, 240)], 7);
  const restlessFrom = 100;
  const restlessTo = 120;

  function moves(level: number): Float32Array {
    const move = new Float32Array(night.hr.length); // still: zeros
    for (let s = restlessFrom * 60; s < restlessTo * 60; s++) if (s % 30 < 12) move[s] = level;
    return move;
  }

  it('without movement the steady night is asleep', () => {
    expect(share(stageSleep(night), 0, 240, SLEEP)).toBeGreaterThan(0.9);
  });

  it('calls a restless stretch wake, and only that stretch', () => {
    const out = stageSleep({ ...night, move: moves(60) });
    expect(share(out, restlessFrom, restlessTo, [Stage.wake])).toBeGreaterThan(0.9);
    expect(share(out, 0, restlessFrom - 2, SLEEP)).toBeGreaterThan(0.9);
    expect(share(out, restlessTo + 2, 240, SLEEP)).toBeGreaterThan(0.9);
  });

  it('ignores movement below the restless level and gaps in the movement signal', () => {
    const faint = stageSleep({ ...night, move: moves(5) });
    expect(share(faint, restlessFrom, restlessTo, SLEEP)).toBeGreaterThan(0.9);
    const missing = stageSleep({ ...night, move: new Float32Array(night.hr.length).fill(Number.NaN) });
    expect(missing).toEqual(stageSleep(night));
  });

  it('turns restless seconds into capped wake evidence and stillness into a little sleep evidence', () => {
    const evidence = movementEvidence(moves(60), night.hr.length / EPOCH_SECONDS);
    const restlessEpoch = (restlessFrom * 60) / EPOCH_SECONDS + 4;
    expect(evidence[restlessEpoch]).toBeGreaterThan(3);
    expect(evidence[restlessEpoch]).toBeLessThanOrEqual(4);
    expect(evidence[10]).toBeLessThan(0);
    expect(evidence[10]).toBeGreaterThan(-1);
  });
});

describe('nightFeatures', () => {
  it('marks epochs without beats so the heart-rate-only model answers them', () => {
    const night = constructNight([stretch(LIGHT, 60), stretch(WAKE, 30), stretch(LIGHT, 60)]);
    const keep = [...night.beats.t.keys()].filter((i) => night.beats.t[i]! < 3600);
    const features = nightFeatures({
      hr: night.hr,
      beats: {
        t: Float64Array.from(keep, (i) => night.beats.t[i]!),
        rr: Float32Array.from(keep, (i) => night.beats.rr[i]!),
      },
    });
    expect(features.withBeats[30]).toBe(1);
    expect(features.withBeats[200]).toBe(0);
    expect(features.judged[200]).toBe(1);
  });

  it('measures the breathing swing as a higher RMSSD', () => {
    const night = constructNight([stretch(LIGHT, 60), stretch({ ...LIGHT, breathingMs: 5 }, 60)]);
    const { rmssdScaled } = nightFeatures(night).columns;
    expect(rmssdScaled[60]!).toBeGreaterThan(rmssdScaled[180]! + 0.5);
  });
});
