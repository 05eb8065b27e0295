import { describe, expect, it } from 'vitest';
import { loginPasswordProblem, passwordProblem } from './password-rules.ts';

describe('loginPasswordProblem (the login page: 6 to 16 characters, no Chinese)', () => {
  it('refuses lengths outside 6–16 and Chinese characters, and accepts every web password', () => {
    expect(loginPasswordProblem('abc12')).toBe('length');
    expect(loginPasswordProblem('a'.repeat(17))).toBe('length');
    expect(loginPasswordProblem('密码Abc#1234')).toBe('chinese');
    expect(loginPasswordProblem('abc，def12')).toBe('chinese');
    expect(loginPasswordProblem('abcdef')).toBeNull();
    expect(loginPasswordProblem('Care#Home2026')).toBeNull();
    for (const web of ['Aa1#aaaa', 'Vigil-Admin#2026']) {
      expect(passwordProblem(web)).toBeNull();
      expect(loginPasswordProblem(web)).toBeNull();
    }
  });
});
