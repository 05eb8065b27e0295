import { transact as transactWith, type ConstraintMessages } from '../../db/transactions.ts';
import type { Executor, Tx } from '../../db/database.ts';

/**
 * Transactions of the facility module: retried on lock races, constraint errors of a
 * concurrent change turned into messages, 'facility.busy' when the retries run out.
 */
export { constraintError, Replan, type ConstraintMessages } from '../../db/transactions.ts';
export { dbErrorOf } from '../../db/db-errors.ts';

export const transact = <T>(
  executor: Executor,
  work: (tx: Tx) => Promise<T>,
  messages: ConstraintMessages = {},
): Promise<T> => transactWith(executor, work, { constraints: messages, busy: 'facility.busy' });
