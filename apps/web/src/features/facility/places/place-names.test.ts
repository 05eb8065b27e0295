import { describe, expect, it } from 'vitest';
import { checkNameList, checkPlaceName, splitNames } from './place-names.ts';

describe('place name rules (the server’s, checked before sending)', () => {
  it('accepts a plain name and refuses empty, long, comma and control-character names', () => {
    expect(checkPlaceName(' Building A ')).toBeNull();
    expect(checkPlaceName('   ')).toEqual({ key: 'common.required' });
    expect(checkPlaceName('x'.repeat(33))).toEqual({ key: 'rule.maxLength', params: { max: 32 } });
    expect(checkPlaceName('x'.repeat(32))).toBeNull();
    expect(checkPlaceName('A,B')).toEqual({ key: 'rule.nameChars' });
    expect(checkPlaceName('A，B')).toEqual({ key: 'rule.nameChars' });
    expect(checkPlaceName('A\u0007')).toEqual({ key: 'rule.nameChars' });
  });

  it('splits on half- and full-width commas, trimming and dropping empty items', () => {
    expect(splitNames(' 101, 102，103 ,, ')).toEqual(['101', '102', '103']);
    expect(splitNames(undefined)).toEqual([]);
  });

  it('refuses an empty list, too many names, long names and repeats (case-insensitive)', () => {
    expect(checkNameList('101, 102')).toBeNull();
    expect(checkNameList(' , ,')).toEqual({ key: 'rule.namesRequired' });
    const many = Array.from({ length: 201 }, (_, i) => `r${i}`).join(',');
    expect(checkNameList(many)).toEqual({ key: 'rule.tooManyNames', params: { max: 200 } });
    expect(checkNameList(`ok, ${'y'.repeat(33)}`)).toEqual({
      key: 'rule.namesTooLong',
      params: { max: 32, names: 'y'.repeat(33) },
    });
    expect(checkNameList('a1, B2, A1, b2, c3')).toEqual({ key: 'rule.namesRepeated', params: { names: 'A1, b2' } });
    expect(checkNameList('a\tb')).toEqual({ key: 'rule.nameChars' });
  });
});
