import { describe, expect, it } from 'vitest';
import { platformNameValid } from './PlatformNameDialog.tsx';

describe('platformNameValid', () => {
  it('needs 1 to 20 characters after trimming', () => {
    expect(platformNameValid('')).toBe(false);
    expect(platformNameValid('   ')).toBe(false);
    expect(platformNameValid('a')).toBe(true);
    expect(platformNameValid('  a  ')).toBe(true);
    expect(platformNameValid('a'.repeat(20))).toBe(true);
    expect(platformNameValid('a'.repeat(21))).toBe(false);
    expect(platformNameValid(`  ${'a'.repeat(20)}  `)).toBe(true);
  });

  it('counts Chinese characters one each', () => {
    expect(platformNameValid('养'.repeat(20))).toBe(true);
    expect(platformNameValid('养'.repeat(21))).toBe(false);
  });

  it('counts astral code points (surrogate pairs) one each', () => {
    expect(platformNameValid('𠀀'.repeat(20))).toBe(true);
    expect('𠀀'.repeat(20).length).toBe(40);
    expect(platformNameValid('𠀀'.repeat(21))).toBe(false);
  });
});
