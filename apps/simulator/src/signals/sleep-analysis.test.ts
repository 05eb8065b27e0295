/**
 * The simulator's nights through the sleep analysis (@vigil/sleep), against the simulator's own
 * ground truth: what the device says exactly (in bed, asleep) must come back exactly, and the
 * analysis must find the resident's apnea when the simulated resident has it. The detectors'
 * accuracy is measured on real recordings (docs/sleep-analysis.md); this checks that the
 * protocol's messages, as the simulator sends them, reach the analysis whole.
 */
import { analyseNight, nightSignals, type DeviceSample } from '@vigil/sleep';
import { describe, expect, it } from 'vitest';
import { Rng } from '../random.ts';
import { SleepSignal, type SleepSample } from './sleep.ts';

const EVENING = new Date(2026, 2, 1, 19).getTime();
const HOURS = 15;

function simulatedNight(seed: string) {
  const signal = new SleepSignal(new Rng(seed), { start: EVENING, matDislodgePerDay: 0 });
  const truth: SleepSample[] = [];
  for (let t = EVENING + 1000; t <= EVENING + HOURS * 3_600_000; t += 1000) truth.push(signal.advance(t));
  const messages: DeviceSample[] = truth.map((s) => ({
    ts: s.at / 1000,
    hr: s.hr,
    rr: s.rr,
    inBed: s.inBed,
    asleep: s.asleep,
    move: s.move,
    rri: s.rri,
  }));
  const start = EVENING / 1000;
  return { signal, truth, report: analyseNight(nightSignals(messages, start, start + HOURS * 3600)) };
}

const seconds = (truth: SleepSample[], test: (s: SleepSample) => boolean) => truth.filter(test).length;

describe("the simulator's nights through the sleep analysis", () => {
  const nights = ['a', 'b', 'c', 'd', 'e'].map((seed) => ({ seed, ...simulatedNight(seed) }));

  it('scores every night and finds the bed time and sleep the device reported', () => {
    for (const { seed, truth, report } of nights) {
      expect(report.insufficient, seed).toBeNull();
      expect(report.coverage, seed).toBeGreaterThan(0.99);
      const firstInBed = truth.find((s) => s.inBed);
      expect(report.bedTime, seed).toBeCloseTo((firstInBed?.at ?? 0) / 1000, -1);
      // Sleep is the device's own flag, to the 30-s epoch.
      const asleep = seconds(truth, (s) => s.inBed && s.asleep);
      expect(Math.abs((report.totalSleep ?? 0) - asleep), seed).toBeLessThan(0.03 * asleep);
      expect(report.heart, seed).not.toBeNull();
      expect(report.hrv, seed).not.toBeNull();
      expect(report.score?.total, seed).toBeGreaterThan(0);
    }
  });

  it("counts the resident's trips out of bed", () => {
    for (const { seed, signal, report } of nights) {
      const trips = signal.resident
        .tripsAround(EVENING + 8 * 3_600_000)
        .filter((trip) => trip.to - trip.from >= 60_000 && trip.from > (report.bedTime ?? 0) * 1000);
      expect(report.leaveBed?.count, seed).toBe(trips.length);
    }
  });

  it('calls sleep apnea (AHI ≥ 5) in the residents simulated with it, and only in them', () => {
    const calls = nights.map(({ signal, report }) => ({
      simulated: signal.resident.profile.apneaPerHour >= 5,
      called: (report.apnea?.ahi ?? 0) >= 5,
    }));
    expect(calls.some((c) => c.simulated)).toBe(true);
    expect(calls.some((c) => !c.simulated)).toBe(true);
    for (const call of calls) expect(call.called).toBe(call.simulated);
  });
});
