import { and, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accountProviders, accounts, providers } from '../../db/schema.ts';

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccountRow = typeof accounts.$inferInsert;

export interface AccountListQuery {
  offset: number;
  limit: number;
  keyWord?: string | undefined;
  role?: string | undefined;
  enabled?: boolean | undefined;
  roles: readonly string[];
  /** null: platform and every provider's accounts; otherwise only these providers'. */
  providerIds: readonly number[] | null;
  excludeId: number;
}

const live = isNull(accounts.deletedAt);
const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class AccountRepository {
  async findById(db: Executor, id: number): Promise<AccountRow | undefined> {
    const [row] = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, id), live));
    return row;
  }

  async findByUserName(db: Executor, userName: string): Promise<AccountRow | undefined> {
    const [row] = await db
      .select()
      .from(accounts)
      .where(and(sql`lower(${accounts.userName}) = lower(${userName})`, live));
    return row;
  }

  async countAll(db: Executor): Promise<number> {
    const [row] = await db.select({ n: count() }).from(accounts);
    return row?.n ?? 0;
  }

  async insert(db: Executor, values: typeof accounts.$inferInsert): Promise<AccountRow> {
    const [row] = await db.insert(accounts).values(values).returning();
    if (!row) throw new Error('account insert returned nothing');
    return row;
  }

  async update(db: Executor, id: number, values: Partial<typeof accounts.$inferInsert>): Promise<void> {
    await db.update(accounts).set(values).where(eq(accounts.id, id));
  }

  async idsOfProviders(db: Executor, providerIds: readonly number[]): Promise<number[]> {
    if (!providerIds.length) return [];
    const rows = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(inArray(accounts.providerId, [...providerIds]));
    return rows.map((r) => r.id);
  }

  async cancelOfProvider(db: Executor, providerId: number, at: Date): Promise<void> {
    await db
      .update(accounts)
      .set({ deletedAt: at, enabled: false, updatedAt: at })
      .where(and(eq(accounts.providerId, providerId), live));
  }

  async permittedProviderIds(db: Executor, accountId: number): Promise<number[]> {
    const rows = await db
      .select({ id: accountProviders.providerId })
      .from(accountProviders)
      .where(eq(accountProviders.accountId, accountId));
    return rows.map((r) => r.id);
  }

  async permittedProviderIdsOf(db: Executor, accountIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (!accountIds.length) return out;
    const rows = await db
      .select()
      .from(accountProviders)
      .where(inArray(accountProviders.accountId, [...accountIds]));
    for (const r of rows) out.set(r.accountId, [...(out.get(r.accountId) ?? []), r.providerId]);
    return out;
  }

  async setPermittedProviders(db: Executor, accountId: number, providerIds: readonly number[]): Promise<void> {
    await db.delete(accountProviders).where(eq(accountProviders.accountId, accountId));
    if (providerIds.length) {
      await db
        .insert(accountProviders)
        .values([...new Set(providerIds)].map((providerId) => ({ accountId, providerId })));
    }
  }

  async page(db: Executor, q: AccountListQuery) {
    const conditions: (SQL | undefined)[] = [live, ne(accounts.id, q.excludeId), inArray(accounts.role, [...q.roles])];
    if (q.providerIds) conditions.push(inArray(accounts.providerId, q.providerIds.length ? [...q.providerIds] : [-1]));
    if (q.keyWord) {
      const like = escapeLike(q.keyWord);
      conditions.push(or(ilike(accounts.userName, like), ilike(accounts.displayName, like)));
    }
    if (q.role) conditions.push(eq(accounts.role, q.role));
    if (q.enabled !== undefined) conditions.push(eq(accounts.enabled, q.enabled));
    const where = and(...conditions);
    const rows = await db
      .select({ account: accounts, providerName: providers.name })
      .from(accounts)
      .leftJoin(providers, eq(providers.id, accounts.providerId))
      .where(where)
      .orderBy(desc(accounts.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db.select({ n: count() }).from(accounts).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  // --- login bookkeeping ---

  /** The lockout columns, row-locked until the transaction ends so concurrent failures count one by one. */
  async lockoutStateForUpdate(db: Executor, id: number) {
    const [row] = await db
      .select({
        failedLogins: accounts.failedLogins,
        firstFailedAt: accounts.firstFailedAt,
        lockedUntil: accounts.lockedUntil,
      })
      .from(accounts)
      .where(eq(accounts.id, id))
      .for('update');
    return row;
  }

  async recordFailure(
    db: Executor,
    id: number,
    values: Pick<AccountRow, 'failedLogins' | 'firstFailedAt' | 'lockedUntil'>,
  ) {
    await db.update(accounts).set(values).where(eq(accounts.id, id));
  }

  async recordSuccess(db: Executor, id: number, at: Date): Promise<void> {
    await db
      .update(accounts)
      .set({ failedLogins: 0, firstFailedAt: null, lockedUntil: null, lastLoginAt: at })
      .where(eq(accounts.id, id));
  }
}
