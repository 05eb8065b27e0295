import { CONSTANTS, WEAK_PASSWORDS } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../../test/fixtures.ts';
import { generatePassword, webPasswordProblem } from './password.policy.ts';

describe('webPasswordProblem', () => {
  it('accepts passwords with a digit, both cases and a special character, 8 to 16 long', () => {
    for (const ok of [STRONG_PASSWORD, 'Ab1!efgh', 'Ab1!efghijklmnop', 'Zz9_zzzz', 'x#Y7x#Y7', 'Ünïcödé1!aA']) {
      expect(webPasswordProblem(ok), ok).toBeNull();
    }
  });

  it('has the length limits of the spec', () => {
    expect(CONSTANTS.passwordMinLength).toBe(8);
    expect(CONSTANTS.passwordMaxLength).toBe(16);
    expect(webPasswordProblem('Ab1!efg')).toBe('password.rules'); // 7
    expect(webPasswordProblem('Ab1!efgh')).toBeNull(); // 8
    expect(webPasswordProblem('Ab1!efghijklmnop')).toBeNull(); // 16
    expect(webPasswordProblem('Ab1!efghijklmnopq')).toBe('password.rules'); // 17
    expect(webPasswordProblem('')).toBe('password.rules');
  });

  it('refuses a password missing any of the four character kinds', () => {
    const cases: Record<string, string> = {
      noDigit: 'Abcdefg!',
      noUpper: 'abcdefg1!',
      noLower: 'ABCDEFG1!',
      noSpecial: 'Abcdefg12',
      lettersOnly: 'Abcdefghij',
      digitsOnly: '1234567890',
    };
    for (const [name, password] of Object.entries(cases))
      expect(webPasswordProblem(password), name).toBe('password.rules');
  });

  it('does not count white space as the special character', () => {
    expect(webPasswordProblem('Abcd 1234')).toBe('password.rules');
    expect(webPasswordProblem('Abc!1234\t')).toBe('password.rules');
    expect(webPasswordProblem('Abc! 1234')).toBe('password.rules');
  });

  it('has exactly the 15 weak passwords, each of which would otherwise pass the rules', () => {
    expect(WEAK_PASSWORDS).toHaveLength(15);
    expect(new Set(WEAK_PASSWORDS.map((p) => p.toLowerCase())).size).toBe(15);
    for (const weak of WEAK_PASSWORDS) {
      expect(weak.length, weak).toBeGreaterThanOrEqual(8);
      expect(/\d/.test(weak) && /[a-z]/.test(weak) && /[A-Z]/.test(weak) && /[^A-Za-z0-9]/.test(weak), weak).toBe(true);
    }
  });

  it('refuses every weak password with password.security, in any letter case', () => {
    for (const weak of WEAK_PASSWORDS) {
      expect(webPasswordProblem(weak), weak).toBe('password.security');
      expect(webPasswordProblem(weak.toLowerCase()), weak).toBe('password.security');
      expect(webPasswordProblem(weak.toUpperCase()), weak).toBe('password.security');
    }
  });

  it('refuses only the weak passwords themselves, not passwords containing them', () => {
    expect(webPasswordProblem('P@ssw0rd!x')).toBeNull();
    expect(webPasswordProblem('xAdmin@123')).toBeNull();
  });
});

describe('generatePassword', () => {
  it('always makes a password that passes the web rules (200 runs)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(password).toHaveLength(16);
      expect(webPasswordProblem(password), password).toBeNull();
      seen.add(password);
    }
    // Random, not a fixed default.
    expect(seen.size).toBe(200);
  });

  it('passes the rules at the shortest allowed length too (200 runs)', () => {
    for (let i = 0; i < 200; i++) {
      const password = generatePassword(8);
      expect(password).toHaveLength(8);
      expect(webPasswordProblem(password), password).toBeNull();
    }
  });

  it('makes longer passwords on request', () => {
    const password = generatePassword(20);
    expect(password).toHaveLength(20);
    expect(/\d/.test(password) && /[a-z]/.test(password) && /[A-Z]/.test(password)).toBe(true);
    expect(/[^A-Za-z0-9]/.test(password)).toBe(true);
  });

  it('avoids characters easily mistaken for one another', () => {
    const all = Array.from({ length: 100 }, () => generatePassword()).join('');
    expect(all).not.toMatch(/[0O1lI]/);
  });
});
