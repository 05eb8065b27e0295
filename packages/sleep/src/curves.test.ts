import { describe, expect, it } from 'vitest';
import { minuteCurves } from './curves.ts';
import { nightSignals } from './night.ts';

describe('minute curves', () => {
  it('averages measured seconds per minute and leaves unmeasured minutes empty', () => {
    const start = 1_000_000;
    const samples = [
      // Minute 0: 30 s in bed at 60 then 30 s at 70 bpm, breathing 12, two seconds of movement.
      ...Array.from({ length: 60 }, (_, s) => ({
        ts: start + s,
        hr: s < 30 ? 60 : 70,
        rr: 12,
        inBed: true,
        move: s === 10 || s === 11 ? 45 : 3,
      })),
      // Minute 1: out of bed, the sensor reads nothing (0 is a gap).
      ...Array.from({ length: 60 }, (_, s) => ({ ts: start + 60 + s, hr: 0, rr: 0, inBed: false, move: 0 })),
      // Minute 2: nothing at all. Minute 3: one second at 55.
      { ts: start + 185, hr: 55, rr: 0, inBed: true, move: 0 },
    ];
    const curves = minuteCurves(nightSignals(samples, start, start + 240));
    expect(curves).toEqual({
      start,
      hr: [65, null, null, 55],
      breath: [12, null, null, null],
      move: [2, 0, null, 0],
      inBed: [1, 0, null, 1],
    });
  });

  it('counts the last part-minute of a window', () => {
    const start = 0;
    const curves = minuteCurves(nightSignals([{ ts: 61, hr: 80, inBed: true }], start, 90));
    expect(curves.hr).toEqual([null, 80]);
  });
});
