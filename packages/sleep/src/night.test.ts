import { describe, expect, it } from 'vitest';
import { nightSignals } from './night.ts';
import { UNKNOWN } from './series.ts';

describe('nightSignals', () => {
  const start = 1_700_000_000;

  it('lays messages on seconds and leaves unreported seconds as gaps', () => {
    const night = nightSignals(
      [
        { ts: start + 0.4, hr: 60, rr: 14, inBed: true, asleep: false, move: 5 },
        { ts: start + 2, hr: 0, rr: 15, inBed: true, asleep: true, move: 120 },
        { ts: start - 1, hr: 70 }, // before the window
        { ts: start + 10, hr: 70 }, // at its end: outside
      ],
      start,
      start + 10,
    );
    expect(night.seconds).toBe(10);
    expect(Array.from(night.reported)).toEqual([1, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(night.hr[0]).toBe(60);
    expect(night.hr[1]).toBeNaN();
    expect(night.hr[2]).toBeNaN(); // 0 = no reading
    expect(night.move[2]).toBe(100);
    expect(night.inBed[1]).toBe(UNKNOWN);
    expect(night.asleep[2]).toBe(1);
    expect(night.beats).toBeUndefined();
  });

  it('rebuilds beat times from the intervals sent with each message', () => {
    const night = nightSignals(
      [
        { ts: start + 2, hr: 60, rri: [1000, 1000] },
        { ts: start + 3.5, hr: 60, rri: [500, 1000] },
      ],
      start,
      start + 5,
    );
    expect(Array.from(night.beats?.t ?? [])).toEqual([1, 2, 2.5, 3.5]);
    expect(Array.from(night.beats?.rr ?? [])).toEqual([1000, 1000, 500, 1000]);
  });
});
