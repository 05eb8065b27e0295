import type { MessageKey } from '@vigil/contract';
import type { Executor, Tx } from '../../db/database.ts';
import { transact as transactWith } from '../../db/transactions.ts';

/**
 * Transactions of the caregiver and community modules: run again after a deadlock or a
 * serialization failure (resident links are locked from both the caregiver and the resident
 * side), constraint violations of a concurrent change turned into messages.
 */
export type ConstraintMessages = Readonly<Record<string, MessageKey>>;

export const transact = <T>(
  executor: Executor,
  work: (tx: Tx) => Promise<T>,
  messages: ConstraintMessages = {},
): Promise<T> => transactWith(executor, work, { constraints: messages, busy: 'caregiver.busy', attempts: 5 });
