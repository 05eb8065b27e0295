import { describe, expect, it } from 'vitest';
import { compareFirmwareVersions, parseFirmwareVersion } from './firmware-version.ts';

const compare = (a: string, b: string) => {
  const x = parseFirmwareVersion(a);
  const y = parseFirmwareVersion(b);
  if (!x || !y) throw new Error(`not versions: ${a}, ${b}`);
  return compareFirmwareVersions(x, y);
};

describe('firmware versions', () => {
  it('reads dotted numbers, with or without a leading v', () => {
    expect(parseFirmwareVersion('1.4.12')).toEqual([1, 4, 12]);
    expect(parseFirmwareVersion(' V2.0 ')).toEqual([2, 0]);
    expect(parseFirmwareVersion('7')).toEqual([7]);
  });

  it('refuses what is not a dotted version, or longer than 20 characters', () => {
    for (const bad of [
      '',
      '1.',
      '.1',
      '1..2',
      '1.2a',
      'v',
      '1.2.3-beta',
      '1,2',
      '1.2.3.4.5.6.7.8.9',
      '123456789.123456789.1',
    ])
      expect(parseFirmwareVersion(bad), bad).toBeNull();
  });

  it('compares number by number, a missing part counting as 0', () => {
    expect(compare('1.10', '1.9')).toBe(1);
    expect(compare('1.9.9', '1.10')).toBe(-1);
    expect(compare('2.1', '2.1.0')).toBe(0);
    expect(compare('v2.1.1', '2.1')).toBe(1);
    expect(compare('0.9', '1')).toBe(-1);
  });
});
