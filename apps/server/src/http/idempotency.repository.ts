import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { idempotencyKeys } from '../db/schema.ts';

export interface KeyScope {
  accountId: number;
  call: string;
  key: string;
}

export interface StoredKey {
  requestHash: string;
  /** Null while the first request runs. */
  answer: unknown;
  httpStatus: number | null;
  createdAt: Date;
}

const scoped = (scope: KeyScope) =>
  and(
    eq(idempotencyKeys.accountId, scope.accountId),
    eq(idempotencyKeys.call, scope.call),
    eq(idempotencyKeys.key, scope.key),
  );

/** Idempotency keys and the answers they replay. */
export class IdempotencyRepository {
  /** Claims the key for a first request; false when it was already claimed (by this or another instance). */
  async claim(db: Executor, scope: KeyScope, requestHash: string, at: Date): Promise<boolean> {
    const rows = await db
      .insert(idempotencyKeys)
      .values({ ...scope, requestHash, createdAt: at })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return rows.length === 1;
  }

  async find(db: Executor, scope: KeyScope): Promise<StoredKey | undefined> {
    const [row] = await db
      .select({
        requestHash: idempotencyKeys.requestHash,
        answer: idempotencyKeys.answer,
        httpStatus: idempotencyKeys.httpStatus,
        createdAt: idempotencyKeys.createdAt,
      })
      .from(idempotencyKeys)
      .where(scoped(scope));
    return row;
  }

  /**
   * Claims a key whose first request never finished (its instance stopped) once it is older than
   * `abandonedBefore`; false when it finished meanwhile or another request took it over first.
   */
  async takeOver(db: Executor, scope: KeyScope, abandonedBefore: Date, at: Date): Promise<boolean> {
    const rows = await db
      .update(idempotencyKeys)
      .set({ createdAt: at })
      .where(and(scoped(scope), isNull(idempotencyKeys.httpStatus), lt(idempotencyKeys.createdAt, abandonedBefore)))
      .returning({ key: idempotencyKeys.key });
    return rows.length === 1;
  }

  async complete(db: Executor, scope: KeyScope, answer: unknown, httpStatus: number): Promise<void> {
    await db.update(idempotencyKeys).set({ answer, httpStatus }).where(scoped(scope));
  }

  /** Frees a key whose request failed on the server's side, so a retry runs again. */
  async release(db: Executor, scope: KeyScope): Promise<void> {
    await db.delete(idempotencyKeys).where(scoped(scope));
  }

  async purgeBefore(db: Executor, before: Date): Promise<void> {
    await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before));
  }
}
