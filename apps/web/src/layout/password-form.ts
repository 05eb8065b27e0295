import { CONSTANTS, passwordProblem } from '@vigil/contract/browser';

export interface PasswordFields {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** What is wrong with the password dialog's fields (a translation key) and the field it is shown on. */
export interface PasswordFormIssue {
  key: string;
  field: keyof PasswordFields;
}

/** The password dialog's checks, in the spec's order, each on the field it is about; null when all pass. */
export const passwordFormIssue = (f: PasswordFields): PasswordFormIssue | null => {
  const empty = (['oldPassword', 'newPassword', 'confirmPassword'] as const).find((field) => !f[field]);
  if (empty) return { key: 'password.full', field: empty };
  const max = CONSTANTS.passwordMaxLength;
  if (f.oldPassword.length > max) return { key: 'password.rules', field: 'oldPassword' };
  for (const field of ['newPassword', 'confirmPassword'] as const) {
    const problem = passwordProblem(f[field]);
    if (problem === 'security') return { key: 'password.security', field };
    if (problem === 'rules') return { key: 'password.rules', field };
  }
  if (f.newPassword !== f.confirmPassword) return { key: 'password.inconsistent', field: 'confirmPassword' };
  return null;
};

/** The password dialog's checks, in the spec's order; returns a translation key or null. */
export const passwordFormProblem = (f: PasswordFields): string | null => passwordFormIssue(f)?.key ?? null;
