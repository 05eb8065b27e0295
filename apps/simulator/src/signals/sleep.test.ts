import { describe, expect, it } from 'vitest';
import { Rng } from '../random.ts';
import { Resident } from './resident.ts';
import { SleepSignal, type SleepSample } from './sleep.ts';

const at = (h: number, m = 0, dayOffset = 0) => new Date(2026, 2, 1 + dayOffset, h, m).getTime();
const EVENING = at(20);

/** Samples once a second from `from` for `hours`. */
const night = (signal: SleepSignal, from: number, hours: number): SleepSample[] => {
  const out: SleepSample[] = [];
  for (let t = from + 1000; t <= from + hours * 3_600_000; t += 1000) out.push(signal.advance(t));
  return out;
};

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Runs of consecutive samples matching `pred`: their lengths and the index after each. */
const runs = (samples: SleepSample[], pred: (s: SleepSample) => boolean) => {
  const found: { start: number; length: number }[] = [];
  let start = -1;
  samples.forEach((s, i) => {
    if (pred(s) && start < 0) start = i;
    if (!pred(s) && start >= 0) {
      found.push({ start, length: i - start });
      start = -1;
    }
  });
  return found;
};

describe('sleep monitor signal', () => {
  // Several residents, a whole night each: the physiology must hold for all of them.
  const nights = ['a', 'b', 'c', 'd'].map((seed) => {
    const signal = new SleepSignal(new Rng(seed), { start: EVENING, matDislodgePerDay: 0 });
    return { seed, signal, samples: night(signal, EVENING, 12) };
  });

  it('keeps heart rate 40–100 and breathing 10–25 while asleep', () => {
    for (const { samples } of nights) {
      const asleep = samples.filter((s) => s.asleep);
      expect(asleep.length).toBeGreaterThan(5 * 3600);
      expect(asleep.filter((s) => s.hr < 40 || s.hr > 100)).toEqual([]);
      expect(asleep.filter((s) => !s.apnea && (s.rr < 10 || s.rr > 25))).toEqual([]);
    }
  });

  it('has a lower heart rate and slower, steadier breathing in deep sleep than awake in bed', () => {
    for (const { samples } of nights) {
      const deep = samples.filter((s) => s.stage === 'deep' && !s.apnea);
      const awake = samples.filter((s) => s.stage === 'awake' && s.inBed);
      const rem = samples.filter((s) => s.stage === 'rem' && !s.apnea);
      expect(deep.length).toBeGreaterThan(0);
      expect(mean(deep.map((s) => s.hr))).toBeLessThan(mean(awake.map((s) => s.hr)) - 5);
      expect(mean(deep.map((s) => s.rr))).toBeLessThan(mean(awake.map((s) => s.rr)));
      expect(mean(deep.map((s) => s.hr))).toBeLessThan(mean(rem.map((s) => s.hr)));
      // Deep sleep is still; awake in bed is restless.
      expect(mean(deep.map((s) => s.move))).toBeLessThan(mean(awake.map((s) => s.move)));
    }
  });

  it('cycles through the night: several REM periods, deep sleep mostly in the first half', () => {
    for (const { samples } of nights) {
      const sleeping = samples.filter((s) => s.asleep);
      const remPeriods = runs(samples, (s) => s.stage === 'rem').filter((r) => r.length > 120);
      expect(remPeriods.length).toBeGreaterThanOrEqual(3);
      const half = sleeping[Math.floor(sleeping.length / 2)]?.at ?? 0;
      const deep = samples.filter((s) => s.stage === 'deep');
      const early = deep.filter((s) => s.at < half).length;
      expect(early / deep.length).toBeGreaterThan(0.6);
      // Shares like a real night: light sleep most, then REM and deep.
      const share = (stage: string) => sleeping.filter((s) => s.stage === stage).length / sleeping.length;
      expect(share('light')).toBeGreaterThan(0.4);
      expect(share('deep')).toBeGreaterThan(0.05);
      expect(share('rem')).toBeGreaterThan(0.1);
    }
  });

  it('varies heart rate and breathing from second to second (not a flat line)', () => {
    for (const { samples } of nights) {
      const light = samples.filter((s) => s.stage === 'light' && !s.apnea).slice(0, 3600);
      const hrs = new Set(light.map((s) => s.hr));
      const rrs = new Set(light.map((s) => s.rr));
      expect(hrs.size).toBeGreaterThanOrEqual(5);
      expect(rrs.size).toBeGreaterThanOrEqual(3);
    }
  });

  it('reports hr, rr and move 0, not in bed and not asleep, while out of bed', () => {
    for (const { samples } of nights) {
      const out = samples.filter((s) => !s.inBed);
      expect(out.length).toBeGreaterThan(0);
      expect(out.filter((s) => s.hr || s.rr || s.move || s.asleep || s.rri.length)).toEqual([]);
    }
  });

  it('sends beat-to-beat intervals matching the heart rate', () => {
    const { samples } = nights[0] as { samples: SleepSample[] };
    const inBed = samples.filter((s) => s.inBed && s.hr > 0).slice(0, 600);
    const beats = inBed.flatMap((s) => s.rri);
    expect(beats.length).toBeGreaterThan(400);
    expect(beats.filter((b) => b < 200 || b > 3000)).toEqual([]);
    const bpmFromRri = 60_000 / mean(beats);
    expect(Math.abs(bpmFromRri - mean(inBed.map((s) => s.hr)))).toBeLessThan(8);
    // Sinus arrhythmia: intervals are not all equal.
    expect(new Set(beats).size).toBeGreaterThan(20);
  });

  it('stops breathing (rr 0) for the whole apnea episode, then recovers with a gasp', () => {
    const resident = new Resident(new Rng('apnea'), { apneaPerHour: 0 });
    const start = at(2);
    resident.override({ from: start - 600_000, to: start + 600_000, inBed: true, stage: 'light' });
    const signal = new SleepSignal(new Rng('apnea'), { start: start - 300_000, resident, matDislodgePerDay: 0 });
    const apneaAt = start;
    signal.scheduleApnea(apneaAt, 30);
    const samples = night(signal, start - 300_000, 0.15);
    const episode = samples.filter((s) => s.apnea);
    expect(episode).toHaveLength(30);
    for (const s of episode) {
      expect(s.rr).toBe(0);
      expect(s.hr).toBeGreaterThan(0); // the heart goes on
      expect(s.inBed).toBe(true);
    }
    const after = samples.filter((s) => s.at > (episode.at(-1)?.at ?? 0)).slice(0, 60);
    expect(after[0]?.rr).toBeGreaterThanOrEqual(10);
    expect(after.every((s) => s.rr >= 10)).toBe(true);
    // The arousal: faster breathing and a movement burst right after.
    const before = samples.filter((s) => s.at < apneaAt).slice(-120);
    expect(Math.max(...after.slice(0, 30).map((s) => s.rr))).toBeGreaterThan(mean(before.map((s) => s.rr)));
    expect(Math.max(...after.slice(0, 5).map((s) => s.move))).toBeGreaterThanOrEqual(15);
  });

  it('has spontaneous apneas of 10–60 s in someone with sleep apnea, each followed by breathing', () => {
    const resident = new Resident(new Rng('osa'), { apneaPerHour: 15 });
    const signal = new SleepSignal(new Rng('osa'), { start: EVENING, resident, matDislodgePerDay: 0 });
    const samples = night(signal, EVENING, 12);
    const episodes = runs(samples, (s) => s.apnea);
    expect(episodes.length).toBeGreaterThan(20);
    for (const e of episodes) {
      expect(e.length).toBeGreaterThanOrEqual(1); // an episode can be cut short by waking
      expect(e.length).toBeLessThanOrEqual(60);
      const next = samples[e.start + e.length];
      if (next?.inBed) expect(next.rr).toBeGreaterThan(0);
    }
    expect(episodes.filter((e) => e.length >= 10).length / episodes.length).toBeGreaterThan(0.8);
  });

  it('reports nothing measured while the mat is dislodged, and says so', () => {
    const resident = new Resident(new Rng('mat'));
    const start = at(2);
    resident.override({ from: start - 600_000, to: start + 3_600_000, inBed: true, stage: 'light' });
    const signal = new SleepSignal(new Rng('mat'), { start, resident, matDislodgePerDay: 0 });
    signal.dislodgeMat(start + 60_000, start + 120_000);
    const samples = night(signal, start, 0.05);
    const off = samples.filter((s) => s.mat === 'dislodged');
    expect(off).toHaveLength(60);
    for (const s of off) expect(s).toMatchObject({ hr: 0, rr: 0, inBed: false, asleep: false });
    expect(samples.filter((s) => s.matChanged)).toHaveLength(2);
  });

  it('is deterministic with a seed, however often it is sampled', () => {
    const a = new SleepSignal(new Rng('same'), { start: EVENING });
    const b = new SleepSignal(new Rng('same'), { start: EVENING });
    const c = new SleepSignal(new Rng('other'), { start: EVENING });
    const every5 = (s: SleepSignal) => {
      const out: number[][] = [];
      for (let t = EVENING + 5000; t <= EVENING + 4 * 3_600_000; t += 5000) {
        const x = s.advance(t);
        out.push([x.hr, x.rr, +x.inBed, x.move]);
      }
      return out;
    };
    const sampledEachSecond = night(a, EVENING, 4)
      .filter((_, i) => (i + 1) % 5 === 0)
      .map((x) => [x.hr, x.rr, +x.inBed]);
    const sampledEvery5 = every5(b);
    expect(sampledEvery5.map(([hr, rr, inBed]) => [hr, rr, inBed])).toEqual(sampledEachSecond);
    expect(every5(c)).not.toEqual(sampledEvery5);
  });
});
