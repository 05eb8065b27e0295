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

/** Chinese (CJK) characters, which no password may hold on the login page. */
const CHINESE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;

/**
 * The login page's own check before anything is sent (spec document 2, section 5, login-page
 * variant): 6 to 16 characters with no Chinese characters. Every password Vigil accepts or
 * generates meets it (web passwords are 8–16, generated ones 16).
 */
export const loginPasswordProblem = (password: string): 'length' | 'chinese' | null => {
  if (CHINESE.test(password)) return 'chinese';
  if (password.length < 6 || password.length > 16) return 'length';
  return null;
};
