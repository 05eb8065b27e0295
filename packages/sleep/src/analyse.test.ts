import { describe, expect, it } from 'vitest';
import { analyseNight } from './analyse.ts';
import { nightSignals, type DeviceSample } from './night.ts';

const START = 1_767_304_800; // 22:00 UTC
const NIGHT = 10 * 3600;

interface Plan {
  inBed: (s: number) => boolean;
  asleep: (s: number) => boolean | null;
  hr?: (s: number) => number;
  beats?: boolean;
}

/** One message a second, as a sleep monitor sends them, following `plan`. */
function night(plan: Plan): DeviceSample[] {
  const samples: DeviceSample[] = [];
  for (let s = 0; s < NIGHT; s++) {
    const inBed = plan.inBed(s);
    const hr = inBed ? (plan.hr?.(s) ?? 58 + 4 * Math.sin(s / 700)) : 0;
    // A 3-second turn every 20 minutes in bed.
    const move = inBed && s % 1200 < 3 ? 40 : inBed ? 2 : 0;
    const rri = plan.beats && hr > 0 ? [Math.round(60_000 / hr + (s % 2 ? 15 : -15))] : null;
    samples.push({ ts: START + s + 0.5, hr, rr: inBed ? 14 : 0, inBed, asleep: plan.asleep(s), move, rri });
  }
  return samples;
}

// In bed 22:30–07:00 but out 02:00–02:10; asleep 23:00–06:30 but awake 04:00–04:05.
const usual: Plan = {
  inBed: (s) => s >= 1800 && s < 32_400 && !(s >= 14_400 && s < 15_000),
  asleep: (s) => s >= 3600 && s < 30_600 && !(s >= 14_400 && s < 15_000) && !(s >= 21_600 && s < 21_900),
  beats: true,
};

describe('analyseNight', () => {
  it('finds bed time, sleep onset, wake-up, awakenings and leaving the bed of a known night', () => {
    const report = analyseNight(nightSignals(night(usual), START, START + NIGHT));
    expect(report.insufficient).toBeNull();
    expect(report.coverage).toBe(1);
    expect(report.bedTime).toBe(START + 1800);
    expect(report.getUpTime).toBe(START + 32_400);
    expect(report.sleepOnset).toBe(START + 3600);
    expect(report.wakeTime).toBe(START + 30_600);
    expect(report.latency).toBe(1800);
    expect(report.leaveBed).toEqual({
      count: 1,
      seconds: 600,
      episodes: [{ start: START + 14_400, end: START + 15_000 }],
    });
    expect(report.awakenings).toBe(2);
    expect(report.wakeAfterOnset).toBe(900);
    expect(report.totalSleep).toBe(27_000 - 900);
    expect(report.efficiency).toBeCloseTo(26_100 / 30_600, 3);
    expect(report.hypnogram).toHaveLength(NIGHT / 30);
    const stages = report.stages;
    expect(stages && stages.rem + stages.light + stages.deep).toBe(26_100);
    // Turns every 20 minutes: three an hour.
    expect(report.movementPerHour).toBeCloseTo(3, 0);
    expect(report.heart?.min).toBeGreaterThanOrEqual(53.5);
    expect(report.heart?.max).toBeLessThanOrEqual(62.5);
    expect(report.breath).toEqual({ min: 14, avg: 14, max: 14 });
    // Alternating ±15 ms around a slowly changing rhythm: RMSSD close to 30 ms.
    expect(report.hrv?.rmssd).toBeGreaterThan(25);
    expect(report.hrv?.rmssd).toBeLessThan(35);
    expect(report.af?.risk).toBe('low');
    expect(report.score?.total).toBeGreaterThan(0);
    expect(report.score?.total).toBeLessThanOrEqual(100);
    expect(report.risk?.grade).toBeDefined();
  });

  it('leaves HRV and AF empty when the device sends no beat intervals', () => {
    const report = analyseNight(nightSignals(night({ ...usual, beats: false }), START, START + NIGHT));
    expect(report.insufficient).toBeNull();
    expect(report.hrv).toBeNull();
    expect(report.af).toBeNull();
    expect(report.totalSleep).toBe(26_100);
  });

  it('never invents: a night without data, out of bed or without signal says so and scores nothing', () => {
    const nothing = analyseNight(nightSignals([], START, START + NIGHT));
    expect(nothing.insufficient).toBe('noData');
    expect(nothing.coverage).toBe(0);

    const away = analyseNight(nightSignals(night({ inBed: () => false, asleep: () => null }), START, START + NIGHT));
    expect(away.insufficient).toBe('notInBed');
    expect(away.bedTime).toBeNull();

    // In bed all night, but the sensor reads a heart rate only one second in four.
    const weak = analyseNight(
      nightSignals(night({ ...usual, hr: (s) => (s % 4 === 0 ? 60 : 0) }), START, START + NIGHT),
    );
    expect(weak.insufficient).toBe('littleSignal');
    expect(weak.signalCoverage).toBeCloseTo(0.25, 2);
    for (const report of [nothing, away, weak]) {
      expect(report.score).toBeNull();
      expect(report.totalSleep).toBeNull();
      expect(report.apnea).toBeNull();
      expect(report.hrv).toBeNull();
      expect(report.risk).toBeNull();
    }
  });

  it('gives the same report for the same messages in any order', () => {
    const samples = night(usual);
    const shuffled = [...samples].reverse();
    expect(analyseNight(nightSignals(shuffled, START, START + NIGHT))).toEqual(
      analyseNight(nightSignals(samples, START, START + NIGHT)),
    );
  });
});
