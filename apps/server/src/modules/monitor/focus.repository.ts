import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accounts, focusResidents } from '../../db/schema.ts';

/** An account's focus residents (focus_resident): the cards of /realMonitor/index. */
export class FocusRepository {
  /** The account's focus residents, in the order they were added. */
  async residentsOf(db: Executor, accountId: number): Promise<number[]> {
    const rows = await db
      .select({ residentId: focusResidents.residentId })
      .from(focusResidents)
      .where(eq(focusResidents.accountId, accountId))
      .orderBy(asc(focusResidents.addedAt), asc(focusResidents.residentId));
    return rows.map((r) => r.residentId);
  }

  /** Which of these residents are the account's focus residents. */
  async among(db: Executor, accountId: number, residentIds: readonly number[]): Promise<Set<number>> {
    if (!residentIds.length) return new Set();
    const rows = await db
      .select({ residentId: focusResidents.residentId })
      .from(focusResidents)
      .where(and(eq(focusResidents.accountId, accountId), inArray(focusResidents.residentId, [...residentIds])));
    return new Set(rows.map((r) => r.residentId));
  }

  /** Locks the account's row: the count-then-insert of two concurrent adds happens one after the other. */
  async lockAccount(tx: Executor, accountId: number): Promise<void> {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
  }

  async count(tx: Executor, accountId: number): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(focusResidents).where(eq(focusResidents.accountId, accountId));
    return row?.n ?? 0;
  }

  async has(tx: Executor, accountId: number, residentId: number): Promise<boolean> {
    const [row] = await tx
      .select({ residentId: focusResidents.residentId })
      .from(focusResidents)
      .where(and(eq(focusResidents.accountId, accountId), eq(focusResidents.residentId, residentId)));
    return row !== undefined;
  }

  async add(tx: Executor, row: { accountId: number; residentId: number; providerId: number; at: Date }): Promise<void> {
    await tx
      .insert(focusResidents)
      .values({ accountId: row.accountId, residentId: row.residentId, providerId: row.providerId, addedAt: row.at })
      .onConflictDoNothing();
  }

  async remove(db: Executor, accountId: number, residentId: number): Promise<void> {
    await db
      .delete(focusResidents)
      .where(and(eq(focusResidents.accountId, accountId), eq(focusResidents.residentId, residentId)));
  }
}
