import { describe, expect, it } from 'vitest';
import { minuteOfDayIn } from './local-time.ts';

describe('minuteOfDayIn', () => {
  it('places instants in the beds’ day, whatever order they come in', () => {
    const shanghai = minuteOfDayIn('Asia/Shanghai');
    expect(shanghai(new Date('2026-11-26T14:30:00Z'))).toBe(22 * 60 + 30);
    expect(shanghai(new Date('2026-11-26T15:59:59Z'))).toBe(23 * 60 + 59);
    expect(shanghai(new Date('2026-11-26T16:00:00Z'))).toBe(0);
    expect(shanghai(new Date('2026-11-26T14:44:00Z'))).toBe(22 * 60 + 44);
  });

  it('follows daylight saving: Prague at 01:30 UTC is 02:30 in winter and 03:30 in summer', () => {
    const prague = minuteOfDayIn('Europe/Prague');
    expect(prague(new Date('2026-01-15T01:30:00Z'))).toBe(2 * 60 + 30);
    expect(prague(new Date('2026-07-15T01:30:00Z'))).toBe(3 * 60 + 30);
    // The spring change (2026-03-29 01:00 UTC): 01:59 CET, then 03:00 CEST.
    expect(prague(new Date('2026-03-29T00:59:00Z'))).toBe(1 * 60 + 59);
    expect(prague(new Date('2026-03-29T01:00:00Z'))).toBe(3 * 60);
  });

  it('handles zones half an hour off UTC', () => {
    expect(minuteOfDayIn('Asia/Kolkata')(new Date('2026-11-26T00:00:00Z'))).toBe(5 * 60 + 30);
  });
});
