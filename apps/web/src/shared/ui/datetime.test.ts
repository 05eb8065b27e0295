import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from './datetime.ts';

const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

/** Issue 8, point 7: lists showed raw UTC ISO strings, 8 hours off for a user in China. */
describe('formatDateTime', () => {
  it('writes a UTC instant in the local time zone, to the minute', () => {
    process.env.TZ = 'Asia/Shanghai';
    expect(formatDateTime('2026-11-23T22:58:02.772Z')).toBe('2026-11-24 06:58');
    process.env.TZ = 'Europe/Berlin';
    expect(formatDateTime('2026-11-23T22:58:02.772Z')).toBe('2026-11-23 23:58');
  });

  it('says nothing (or the given placeholder) for a missing or unreadable time', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined, '—')).toBe('—');
    expect(formatDateTime('not a time', '—')).toBe('—');
  });
});
