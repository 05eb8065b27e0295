import { WEAK_PASSWORDS } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { passwordFormProblem } from './password-form.ts';

const GOOD = 'Gx7#kLm2q';
const form = (oldPassword: string, newPassword: string, confirmPassword: string) =>
  passwordFormProblem({ oldPassword, newPassword, confirmPassword });

describe('passwordFormProblem', () => {
  it('needs all three fields', () => {
    expect(form('', GOOD, GOOD)).toBe('password.full');
    expect(form('old', '', GOOD)).toBe('password.full');
    expect(form('old', GOOD, '')).toBe('password.full');
    expect(form('', '', '')).toBe('password.full');
  });

  it('rejects every weak password, in any case, as security', () => {
    expect(WEAK_PASSWORDS.length).toBeGreaterThan(0);
    for (const weak of WEAK_PASSWORDS) {
      expect(form('OldPass#1', weak, weak)).toBe('password.security');
      expect(form('OldPass#1', weak.toUpperCase(), weak.toUpperCase())).toBe('password.security');
    }
  });

  it('a weak confirmation is also reported as security', () => {
    const weak = WEAK_PASSWORDS[0] ?? '';
    expect(form('OldPass#1', GOOD, weak)).toBe('password.security');
  });

  it('rule failures', () => {
    for (const bad of [
      'Ab1#xyz', // 7 chars
      'Ab1#xyzabcdefghij', // 17 chars
      'abc#12345', // no upper
      'ABC#12345', // no lower
      'Abc#defgh', // no digit
      'Abc12345x', // no special
      'Abc 12345#', // whitespace
    ]) {
      expect(form('OldPass#1', bad, bad), bad).toBe('password.rules');
    }
  });

  it('old password over the maximum length breaks the rules', () => {
    expect(form('x'.repeat(17), GOOD, GOOD)).toBe('password.rules');
    expect(form('x'.repeat(16), GOOD, GOOD)).toBeNull();
  });

  it('mismatch', () => {
    expect(form('OldPass#1', GOOD, 'Hy8$kLm2q')).toBe('password.inconsistent');
  });

  it('boundary lengths 8 and 16 are valid', () => {
    expect(form('old', 'Ab1#efgh', 'Ab1#efgh')).toBeNull();
    expect(form('old', 'Ab1#efghijklmnop', 'Ab1#efghijklmnop')).toBeNull();
  });

  it('valid', () => {
    expect(form('OldPass#1', GOOD, GOOD)).toBeNull();
  });
});
