import { CONSTANTS } from '@vigil/contract';

export interface LockoutState {
  failedLogins: number;
  firstFailedAt: Date | null;
  lockedUntil: Date | null;
}

const { failures, windowMs, lockMs } = CONSTANTS.loginLockout;

/** Minutes left on a lock, or 0 when the account may try. */
export const lockedMinutes = (state: LockoutState, now: Date): number => {
  if (!state.lockedUntil || state.lockedUntil <= now) return 0;
  return Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 60_000);
};

/** The state after one more failure: five within 15 minutes lock the account for 15 minutes. */
export const afterFailure = (state: LockoutState, now: Date): LockoutState => {
  const windowOpen = state.firstFailedAt !== null && now.getTime() - state.firstFailedAt.getTime() < windowMs;
  const failedLogins = windowOpen ? state.failedLogins + 1 : 1;
  const firstFailedAt = windowOpen ? state.firstFailedAt : now;
  if (failedLogins >= failures)
    return { failedLogins: 0, firstFailedAt: null, lockedUntil: new Date(now.getTime() + lockMs) };
  return { failedLogins, firstFailedAt, lockedUntil: null };
};
