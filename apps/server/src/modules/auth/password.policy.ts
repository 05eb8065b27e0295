import { randomInt } from 'node:crypto';
import { CONSTANTS, WEAK_PASSWORDS, type MessageKey } from '@vigil/contract';

const weak = new Set(WEAK_PASSWORDS.map((p) => p.toLowerCase()));

/** Web password rules: 8–16 characters with a digit, lower and upper case and a special character, not on the weak list. */
export const webPasswordProblem = (password: string): MessageKey | null => {
  if (weak.has(password.toLowerCase())) return 'password.security';
  const { passwordMinLength: min, passwordMaxLength: max } = CONSTANTS;
  if (password.length < min || password.length > max) return 'password.rules';
  if (!/\d/.test(password) || !/[a-z]/.test(password) || !/[A-Z]/.test(password)) return 'password.rules';
  if (!/[^A-Za-z0-9]/.test(password) || /\s/.test(password)) return 'password.rules';
  return null;
};

const SETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnpqrstuvwxyz', '23456789', '!@#$%^&*-_=+?'];

/** A random password that satisfies the web rules (shown once to whoever created the account). */
export const generatePassword = (length = 16): string => {
  const all = SETS.join('');
  const chars = SETS.map((set) => set[randomInt(set.length)] ?? 'x');
  while (chars.length < length) chars.push(all[randomInt(all.length)] ?? 'x');
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
};
