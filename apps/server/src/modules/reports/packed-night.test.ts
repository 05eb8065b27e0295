import { describe, expect, it } from 'vitest';
import { unpackNight } from './packed-night.ts';

describe('a packed night', () => {
  it('gives back each minute with its seconds and beat intervals, or null where nothing was kept', () => {
    const seconds = Buffer.from(Array.from({ length: 240 }, (_, i) => i % 256));
    // PostgreSQL's base64 breaks lines every 76 characters.
    const base64 = seconds.toString('base64').replace(/(.{76})/g, '$1\n');
    const minutes = unpackNight([`1767304800:${base64}:812,790`, null, '1767304860::;1767304920:AAAA:']);
    expect(minutes.map((m) => [m.minute.toISOString(), m.seconds?.length ?? null, m.rri])).toEqual([
      ['2026-01-01T22:00:00.000Z', 240, [812, 790]],
      ['2026-01-01T22:01:00.000Z', null, null],
      ['2026-01-01T22:02:00.000Z', 3, null],
    ]);
    expect(Array.from(minutes[0]?.seconds ?? [])).toEqual(Array.from(seconds));
  });

  it('refuses a malformed minute rather than leave a quiet gap', () => {
    expect(() => unpackNight(['1767304800:AAAA'])).toThrow(/malformed/);
    expect(() => unpackNight(['x::'])).toThrow(/malformed/);
  });
});
