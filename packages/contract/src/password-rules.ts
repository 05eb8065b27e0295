import { CONSTANTS, WEAK_PASSWORDS } from './constants.ts';

const weak = new Set(WEAK_PASSWORDS.map((p) => p.toLowerCase()));

/**
 * Web password rules shared by the server and the console: `security` when the password is
 * on the weak list, `rules` when it is not 8–16 characters with a digit, lower and upper
 * case and a special character, null when acceptable.
 */
export const passwordProblem = (password: string): 'security' | 'rules' | null => {
  if (weak.has(password.toLowerCase())) return 'security';
  const { passwordMinLength: min, passwordMaxLength: max } = CONSTANTS;
  if (password.length < min || password.length > max) return 'rules';
  if (!/\d/.test(password) || !/[a-z]/.test(password) || !/[A-Z]/.test(password)) return 'rules';
  if (!/[^A-Za-z0-9]/.test(password) || /\s/.test(password)) return 'rules';
  return null;
};
