/** Inner status codes carried in the envelope (spec document 2, section 8). */
export const Status = {
  OK: 200,
  SESSION_INVALID: 100,
  SESSION_EXPIRED: 101,
  WRONG_CREDENTIALS: 102,
  OLD_PASSWORD_WRONG: 104,
  ACCOUNT_DISABLED: 107,
  FAILED: 300,
  INVALID_INPUT: 400,
  SERVER_ERROR: 500,
} as const;

export type StatusCode = (typeof Status)[keyof typeof Status];

/** Statuses that make a client drop its session when the call is login-sensitive. */
export const SESSION_RESET_STATUSES: readonly StatusCode[] = [Status.SESSION_INVALID, Status.SESSION_EXPIRED];
