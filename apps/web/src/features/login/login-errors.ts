import { Status } from '@vigil/contract/browser';
import { ApiError } from '../../shared/api/client.ts';

/** The login page's message for a failure (spec document 2, section 8). */
export const loginErrorMessage = (error: unknown, t: (key: string) => string): string => {
  if (!(error instanceof ApiError)) return t('login.error.other');
  if (error.status === Status.WRONG_CREDENTIALS) return t('login.error.102');
  if (error.status === Status.ACCOUNT_DISABLED) return t('login.error.107');
  if (error.msgKey === 'login.noAccess') return t('login.error.noAccess');
  // Lockout and rate limit carry the wait time: the server's localised text says it best.
  if (error.msgKey === 'login.locked' || error.msgKey === 'login.rateLimited') return error.message;
  if (error.status === Status.INVALID_INPUT) return error.message;
  return t('login.error.other');
};
