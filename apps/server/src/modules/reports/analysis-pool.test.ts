import { analyseNight, minuteCurves, nightSignals, type DeviceSample } from '@vigil/sleep';
import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from './analysis-pool.ts';

const START = 1_767_304_800;

function night(hours: number, seed: number): DeviceSample[] {
  const samples: DeviceSample[] = [];
  for (let s = 0; s < hours * 3600; s++) {
    const inBed = s >= 1800;
    const hr = inBed ? 58 + 4 * Math.sin(s / (500 + seed)) : 0;
    samples.push({
      ts: START + s + 0.5,
      hr,
      rr: inBed ? 14 : 0,
      inBed,
      asleep: inBed && s >= 3000,
      move: s % 1300 < 2 ? 30 : 1,
      rri: hr ? [Math.round(60_000 / hr) + (s % 2 ? 10 : -10)] : null,
    });
  }
  return samples;
}

const signalsOf = (samples: DeviceSample[], hours: number) => nightSignals(samples, START, START + hours * 3600);

describe('the analysis pool', () => {
  const pool = new AnalysisPool({ size: 2, timeoutMs: 20_000 });
  afterAll(() => pool.stop());

  it('analyses nights in worker threads, exactly as the library does on this thread', async () => {
    const nights = [1, 2, 3, 4, 5].map((seed) => night(8, seed));
    const analyses = await Promise.all(nights.map((samples) => pool.analyse(signalsOf(samples, 8))));
    analyses.forEach(({ report, curves }, i) => {
      expect(report).toEqual(analyseNight(signalsOf(nights[i] ?? [], 8)));
      expect(curves).toEqual(minuteCurves(signalsOf(nights[i] ?? [], 8)));
    });
    expect(analyses[0]?.report.insufficient).toBeNull();
    expect(analyses[0]?.curves.hr).toHaveLength(8 * 60);
  });

  it('fails a night whose analysis throws, and goes on with the next', async () => {
    const broken = { ...signalsOf(night(1, 1), 1), hr: undefined } as unknown as Parameters<typeof pool.analyse>[0];
    await expect(pool.analyse(broken)).rejects.toThrow();
    const { report } = await pool.analyse(signalsOf(night(2, 2), 2));
    expect(report.insufficient).toBeNull();
  });

  it('replaces a worker whose night takes too long', async () => {
    const hasty = new AnalysisPool({ size: 1, timeoutMs: 1 });
    await expect(hasty.analyse(signalsOf(night(8, 1), 8))).rejects.toThrow(/analyse took over 1 ms/);
    await hasty.stop();
    await expect(hasty.analyse(signalsOf(night(1, 1), 1))).rejects.toThrow(/stopped/);
  });
});
