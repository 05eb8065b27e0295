import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { communities, providers, residents } from '../../db/schema.ts';
import { containsPattern } from '../../db/sql-filters.ts';

export type CommunityRow = typeof communities.$inferSelect;
export type NewCommunityRow = typeof communities.$inferInsert;

/** What the community module reads of a resident (the residents module owns the table). */
export interface MemberRef {
  id: number;
  providerId: number;
  name: string;
  communityId: number | null;
}

export interface CommunityListQuery {
  offset: number;
  limit: number;
  keyWord?: string | undefined;
  /** null: every provider. */
  providerIds: readonly number[] | null;
}

const residentCount = sql<number>`(select count(*)::int from ${residents} where ${residents.communityId} = ${communities.id})`;

/** Communities; residents are only read. */
export class CommunityRepository {
  async findById(db: Executor, id: number): Promise<CommunityRow | undefined> {
    const [row] = await db.select().from(communities).where(eq(communities.id, id));
    return row;
  }

  /** The row, locked until the transaction ends (settings are read, merged and written back). */
  async lock(db: Executor, id: number): Promise<CommunityRow | undefined> {
    const [row] = await db.select().from(communities).where(eq(communities.id, id)).for('update');
    return row;
  }

  async nameTaken(db: Executor, providerId: number, name: string): Promise<boolean> {
    const [row] = await db
      .select({ id: communities.id })
      .from(communities)
      .where(and(eq(communities.providerId, providerId), sql`lower(${communities.name}) = lower(${name})`));
    return row !== undefined;
  }

  async insert(db: Executor, values: NewCommunityRow): Promise<CommunityRow> {
    const [row] = await db.insert(communities).values(values).returning();
    if (!row) throw new Error('community insert returned nothing');
    return row;
  }

  async update(db: Executor, id: number, values: Partial<NewCommunityRow>): Promise<void> {
    await db.update(communities).set(values).where(eq(communities.id, id));
  }

  async delete(db: Executor, id: number): Promise<void> {
    await db.delete(communities).where(eq(communities.id, id));
  }

  async page(db: Executor, q: CommunityListQuery) {
    const conditions: (SQL | undefined)[] = [];
    if (q.providerIds) {
      conditions.push(inArray(communities.providerId, q.providerIds.length ? [...q.providerIds] : [-1]));
    }
    if (q.keyWord) {
      const like = containsPattern(q.keyWord);
      conditions.push(
        or(
          ilike(communities.name, like),
          ilike(communities.address, like),
          ilike(communities.contact, like),
          ilike(communities.phone, like),
        ),
      );
    }
    const where = and(...conditions);
    const rows = await db
      .select({ community: communities, providerName: providers.name, residentCount })
      .from(communities)
      .leftJoin(providers, eq(providers.id, communities.providerId))
      .where(where)
      .orderBy(desc(communities.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db.select({ n: count() }).from(communities).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  async residentCount(db: Executor, id: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(residents).where(eq(residents.communityId, id));
    return row?.n ?? 0;
  }

  async residentsByIds(db: Executor, ids: readonly number[]): Promise<MemberRef[]> {
    if (!ids.length) return [];
    return db
      .select({
        id: residents.id,
        providerId: residents.providerId,
        name: residents.name,
        communityId: residents.communityId,
      })
      .from(residents)
      .where(inArray(residents.id, [...ids]));
  }

  /** Ids of the residents who belong to the community now. */
  async memberIds(db: Executor, id: number): Promise<number[]> {
    const rows = await db.select({ id: residents.id }).from(residents).where(eq(residents.communityId, id));
    return rows.map((r) => r.id);
  }
}
