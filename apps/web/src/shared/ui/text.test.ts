import { describe, expect, it } from 'vitest';
import { shortProviderName } from './text.ts';

describe('shortProviderName', () => {
  it('keeps names of up to 10 characters', () => {
    expect(shortProviderName('')).toBe('');
    expect(shortProviderName('abcdefghij')).toBe('abcdefghij');
    expect(shortProviderName('养老院养老院养老院养')).toBe('养老院养老院养老院养');
  });

  it('cuts longer names to 10 characters plus an ellipsis', () => {
    expect(shortProviderName('abcdefghijk')).toBe('abcdefghij...');
    expect(shortProviderName('养老院养老院养老院养老院')).toBe('养老院养老院养老院养...');
  });

  it('does not split surrogate pairs', () => {
    expect(shortProviderName('𠀀'.repeat(11))).toBe(`${'𠀀'.repeat(10)}...`);
  });
});
