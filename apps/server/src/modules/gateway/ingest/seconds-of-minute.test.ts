import { describe, expect, it } from 'vitest';
import { emptySeconds, readSecond, SECONDS_BYTES, writeSecond } from './seconds-of-minute.ts';

describe('seconds of a minute', () => {
  it('keeps each second of a minute in four bytes and gives it back', () => {
    const bytes = emptySeconds();
    expect(bytes).toHaveLength(SECONDS_BYTES);
    writeSecond(bytes, 0, { hr: 62, rr: 14, move: 3, inBed: true, asleep: false });
    writeSecond(bytes, 59, { hr: 0, rr: 0, move: 100, inBed: false, asleep: false });
    expect(readSecond(bytes, 0)).toEqual({ hr: 62, rr: 14, move: 3, inBed: true, asleep: false });
    expect(readSecond(bytes, 59)).toEqual({ hr: 0, rr: 0, move: 100, inBed: false, asleep: false });
    expect(readSecond(bytes, 30)).toBeNull();
  });

  it('keeps readings a byte can hold and ignores seconds outside the minute', () => {
    const bytes = emptySeconds();
    writeSecond(bytes, 1, { hr: 300, rr: 100, move: 100, inBed: true, asleep: true });
    expect(readSecond(bytes, 1)).toEqual({ hr: 254, rr: 100, move: 100, inBed: true, asleep: true });
    const before = Uint8Array.from(bytes);
    writeSecond(bytes, 60, { hr: 70, rr: 12, move: 0, inBed: true, asleep: true });
    writeSecond(bytes, -1, { hr: 70, rr: 12, move: 0, inBed: true, asleep: true });
    expect(bytes).toEqual(before);
  });
});
