import { describe, expect, it } from 'vitest';
import { latestEndedNight, localDate, localInstant, nightWindow } from './night-window.ts';

describe("a resident's night window", () => {
  it('runs from two hours before the sleep time on the evening before to ten minutes after waking', () => {
    const w = nightWindow('2026-03-02', '21:30', '06:30', 'Asia/Shanghai');
    expect(w.start.toISOString()).toBe('2026-03-01T11:30:00.000Z'); // 19:30 local on the 1st
    expect(w.end.toISOString()).toBe('2026-03-01T22:40:00.000Z'); // 06:40 local on the 2nd
  });

  it('keeps a sleep time after midnight on the morning itself', () => {
    const w = nightWindow('2026-03-02', '01:00', '09:00', 'UTC');
    expect(w.start.toISOString()).toBe('2026-03-01T23:00:00.000Z');
    expect(w.end.toISOString()).toBe('2026-03-02T09:10:00.000Z');
  });

  it('follows daylight-saving changes of the zone', () => {
    // Europe/Berlin springs forward on 2026-03-29 at 02:00: the night is an hour shorter.
    const w = nightWindow('2026-03-29', '22:00', '07:00', 'Europe/Berlin');
    expect(w.start.toISOString()).toBe('2026-03-28T19:00:00.000Z'); // 20:00 CET
    expect(w.end.toISOString()).toBe('2026-03-29T05:10:00.000Z'); // 07:10 CEST
    // A wall time in the gap is taken after it.
    expect(localInstant('2026-03-29', 150, 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // On 2026-10-25 02:30 happens twice: the first one counts.
    expect(localInstant('2026-10-25', 150, 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('names the latest night that has ended by now, by the local date of waking', () => {
    const tz = 'Asia/Shanghai';
    // 06:35 local: this morning's night has not ended (06:40); the report due is yesterday's.
    expect(latestEndedNight(new Date('2026-03-01T22:35:00Z'), '21:30', '06:30', tz).night).toBe('2026-03-01');
    // 06:40 local: it has.
    expect(latestEndedNight(new Date('2026-03-01T22:40:00Z'), '21:30', '06:30', tz).night).toBe('2026-03-02');
    expect(localDate(new Date('2026-03-01T22:40:00Z'), tz)).toBe('2026-03-02');
  });
});
