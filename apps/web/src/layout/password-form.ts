import { CONSTANTS, passwordProblem } from '@vigil/contract/browser';

export interface PasswordFields {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The password dialog's checks, in the spec's order; returns a translation key or null. */
export const passwordFormProblem = (f: PasswordFields): string | null => {
  if (!f.oldPassword || !f.newPassword || !f.confirmPassword) return 'password.full';
  const max = CONSTANTS.passwordMaxLength;
  if (f.oldPassword.length > max) return 'password.rules';
  for (const value of [f.newPassword, f.confirmPassword]) {
    const problem = passwordProblem(value);
    if (problem === 'security') return 'password.security';
    if (problem === 'rules') return 'password.rules';
  }
  if (f.newPassword !== f.confirmPassword) return 'password.inconsistent';
  return null;
};
