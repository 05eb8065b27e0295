import type { MessageKey } from '@vigil/contract';
import type { Executor, Tx } from '../../db/database.ts';
import { fail, type AppError } from '../../core/app-error.ts';

/**
 * Transactions of the caregiver and community modules: run again after a deadlock or a
 * serialization failure (resident links are locked from both the caregiver and the resident
 * side), and constraint violations of a concurrent change turned into messages.
 */

const RETRYABLE_STATES = new Set(['40001', '40P01']);
const ATTEMPTS = 5;

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

/** Unique (23505) and foreign-key (23503) violations by constraint name. */
export type ConstraintMessages = Readonly<Record<string, MessageKey>>;

const constraintError = (error: unknown, messages: ConstraintMessages): AppError | undefined => {
  const db = dbErrorOf(error);
  if (!db?.constraint || (db.code !== '23505' && db.code !== '23503')) return undefined;
  const key = messages[db.constraint];
  return key ? fail(key) : undefined;
};

/** Runs `work` in a transaction (a savepoint inside a caller's transaction), again after a deadlock. */
export const transact = async <T>(
  executor: Executor,
  work: (tx: Tx) => Promise<T>,
  messages: ConstraintMessages = {},
): Promise<T> => {
  const run = (executor as { transaction: (fn: (tx: Tx) => Promise<T>) => Promise<T> }).transaction.bind(executor);
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(work);
    } catch (error) {
      if (RETRYABLE_STATES.has(dbErrorOf(error)?.code ?? '')) {
        if (attempt < ATTEMPTS) continue;
        throw fail('caregiver.busy');
      }
      throw constraintError(error, messages) ?? error;
    }
  }
};
