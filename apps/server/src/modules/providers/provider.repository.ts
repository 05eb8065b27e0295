import { and, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { accounts, providers } from '../../db/schema.ts';
import { containsPattern } from '../../db/sql-filters.ts';

export type ProviderRow = typeof providers.$inferSelect;

export interface ProviderListQuery {
  offset: number;
  limit: number;
  keyWord?: string | undefined;
  providerClass?: 1 | 2 | undefined;
  parentId?: number | undefined;
  enabled?: boolean | undefined;
  /** null: no restriction. */
  ids: readonly number[] | null;
}

const live = isNull(providers.deletedAt);
const parent = alias(providers, 'parent');

export class ProviderRepository {
  async findById(db: Executor, id: number): Promise<ProviderRow | undefined> {
    const [row] = await db
      .select()
      .from(providers)
      .where(and(eq(providers.id, id), live));
    return row;
  }

  async findByDomain(db: Executor, domain: string): Promise<ProviderRow | undefined> {
    const [row] = await db
      .select()
      .from(providers)
      .where(and(eq(providers.domain, domain), live));
    return row;
  }

  /** The provider and its direct subordinates (the hierarchy has two levels). */
  async ownAndSubordinateIds(db: Executor, id: number): Promise<number[]> {
    const rows = await db
      .select({ id: providers.id })
      .from(providers)
      .where(and(or(eq(providers.id, id), eq(providers.parentId, id)), live));
    return rows.map((r) => r.id);
  }

  async byIds(db: Executor, ids: readonly number[]): Promise<ProviderRow[]> {
    if (!ids.length) return [];
    return db
      .select()
      .from(providers)
      .where(and(inArray(providers.id, [...ids]), live))
      .orderBy(providers.id);
  }

  async subordinates(db: Executor, id: number): Promise<ProviderRow[]> {
    return db
      .select()
      .from(providers)
      .where(and(eq(providers.parentId, id), live))
      .orderBy(providers.id);
  }

  async nameOrNumberTaken(db: Executor, name: string, number: string, exceptId?: number) {
    const rows = await db
      .select({ id: providers.id, name: providers.name, number: providers.number })
      .from(providers)
      .where(
        and(
          live,
          or(sql`lower(${providers.name}) = lower(${name})`, sql`lower(${providers.number}) = lower(${number})`),
          exceptId === undefined ? undefined : sql`${providers.id} <> ${exceptId}`,
        ),
      );
    return {
      name: rows.some((r) => r.name.toLowerCase() === name.toLowerCase()),
      number: rows.some((r) => r.number.toLowerCase() === number.toLowerCase()),
    };
  }

  async insert(db: Executor, values: typeof providers.$inferInsert): Promise<ProviderRow> {
    const [row] = await db.insert(providers).values(values).returning();
    if (!row) throw new Error('provider insert returned nothing');
    return row;
  }

  async update(db: Executor, id: number, values: Partial<typeof providers.$inferInsert>): Promise<void> {
    await db.update(providers).set(values).where(eq(providers.id, id));
  }

  async page(db: Executor, q: ProviderListQuery) {
    const conditions: (SQL | undefined)[] = [live];
    if (q.ids) conditions.push(inArray(providers.id, q.ids.length ? [...q.ids] : [-1]));
    if (q.keyWord) {
      const like = containsPattern(q.keyWord);
      conditions.push(or(ilike(providers.name, like), ilike(providers.number, like), ilike(accounts.userName, like)));
    }
    if (q.providerClass) conditions.push(eq(providers.providerClass, q.providerClass));
    if (q.parentId !== undefined) conditions.push(eq(providers.parentId, q.parentId));
    if (q.enabled !== undefined) conditions.push(eq(providers.enabled, q.enabled));
    const where = and(...conditions);
    const loginAccount = and(
      eq(accounts.providerId, providers.id),
      isNull(accounts.deletedAt),
      inArray(accounts.role, ['ONE_ROLE', 'TWO_ROLE']),
    );
    const rows = await db
      .select({ provider: providers, userName: accounts.userName, parentName: parent.name })
      .from(providers)
      .leftJoin(accounts, loginAccount)
      .leftJoin(parent, eq(parent.id, providers.parentId))
      .where(where)
      .orderBy(desc(providers.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db.select({ n: count() }).from(providers).leftJoin(accounts, loginAccount).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  async loginAccountName(db: Executor, providerId: number): Promise<string | null> {
    const [row] = await db
      .select({ userName: accounts.userName })
      .from(accounts)
      .where(
        and(
          eq(accounts.providerId, providerId),
          isNull(accounts.deletedAt),
          inArray(accounts.role, ['ONE_ROLE', 'TWO_ROLE']),
        ),
      );
    return row?.userName ?? null;
  }
}
