import { randomInt } from 'node:crypto';
import { passwordProblem, type MessageKey } from '@vigil/contract';

/** Web password rules (shared with the console through the contract), as a message key. */
export const webPasswordProblem = (password: string): MessageKey | null => {
  const problem = passwordProblem(password);
  return problem === 'security' ? 'password.security' : problem === 'rules' ? 'password.rules' : null;
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
