/** Reading PostgreSQL errors (from pg or PGlite, possibly wrapped by drizzle) in one place. */

/** SQLSTATE and constraint of a database error, looking through the query error's causes. */
export const dbErrorOf = (error: unknown): { code: string; constraint: string | undefined } | undefined => {
  let current = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, constraint, cause } = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
    }
    current = cause;
  }
  return undefined;
};

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** The constraint a unique or foreign-key violation names, if the error is one (of the given codes). */
export const violatedConstraint = (
  error: unknown,
  codes: readonly string[] = [UNIQUE_VIOLATION, FOREIGN_KEY_VIOLATION],
): string | undefined => {
  const db = dbErrorOf(error);
  return db && codes.includes(db.code) ? db.constraint : undefined;
};

/** Serialization failure and deadlock: PostgreSQL rolled the transaction back; running it again is safe. */
export const isRetryable = (error: unknown): boolean => {
  const code = dbErrorOf(error)?.code;
  return code === '40001' || code === '40P01';
};
