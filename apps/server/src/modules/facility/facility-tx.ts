import type { MessageKey, MessageParams } from '@vigil/contract';
import type { Executor, Tx } from '../../db/database.ts';
import { fail, type AppError } from '../../core/app-error.ts';

/**
 * Transactions of the facility module: retry on lock races, and database constraint errors
 * turned into the messages a user can act on.
 */

/** Thrown when what was read before taking the row locks changed meanwhile: run the transaction again. */
export class Replan extends Error {
  override name = 'Replan';
}

/** Serialization failure and deadlock: PostgreSQL rolled the transaction back; running it again is safe. */
const RETRYABLE_STATES = new Set(['40001', '40P01']);
const ATTEMPTS = 6;

interface DbError {
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/** SQLSTATE and constraint of a database error, looking through the query error's causes. */
export const dbErrorOf = (error: unknown): { code: string; constraint: string | undefined } | undefined => {
  let current = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, constraint, cause } = current as DbError;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
    }
    current = cause;
  }
  return undefined;
};

/** Constraint violations (unique 23505, foreign key 23503) that mean a concurrent change won. */
export type ConstraintMessages = Readonly<Record<string, MessageKey | [MessageKey, MessageParams]>>;

export const constraintError = (error: unknown, messages: ConstraintMessages): AppError | undefined => {
  const db = dbErrorOf(error);
  if (!db || (db.code !== '23505' && db.code !== '23503') || !db.constraint) return undefined;
  const known = messages[db.constraint];
  if (!known) return undefined;
  return typeof known === 'string' ? fail(known) : fail(known[0], known[1]);
};

const run = <T>(executor: Executor, work: (tx: Tx) => Promise<T>): Promise<T> =>
  // On a transaction handle this opens a savepoint, so a retry rolls back only this work.
  (executor as { transaction: (fn: (tx: Tx) => Promise<T>) => Promise<T> }).transaction(work);

/**
 * Runs `work` in a transaction (a savepoint inside the caller's transaction), again after a
 * deadlock, a serialization failure or a Replan; maps the given constraint violations to messages.
 */
export const transact = async <T>(
  executor: Executor,
  work: (tx: Tx) => Promise<T>,
  messages: ConstraintMessages = {},
): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(executor, work);
    } catch (error) {
      const retryable = error instanceof Replan || RETRYABLE_STATES.has(dbErrorOf(error)?.code ?? '');
      if (retryable) {
        if (attempt < ATTEMPTS) continue;
        throw fail('facility.busy');
      }
      throw constraintError(error, messages) ?? error;
    }
  }
};
