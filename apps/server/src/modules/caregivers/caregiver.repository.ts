import { and, asc, count, desc, eq, ilike, inArray, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accounts, caregivers, providers, residentCaregivers, residents } from '../../db/schema.ts';

export type CaregiverRow = typeof caregivers.$inferSelect;
export type NewCaregiverRow = typeof caregivers.$inferInsert;

export interface CaregiverListQuery {
  offset: number;
  limit: number;
  keyWord?: string | undefined;
  level?: string | undefined;
  enabled?: boolean | undefined;
  id?: number | undefined;
  /** null: every provider. */
  providerIds: readonly number[] | null;
}

/** What the caregiver module reads of a resident (the residents module owns the table). */
export interface ResidentRef {
  id: number;
  providerId: number;
  name: string;
}

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Caregivers and their resident links. Residents are only read (and row-locked while links change). */
export class CaregiverRepository {
  async findById(db: Executor, id: number): Promise<CaregiverRow | undefined> {
    const [row] = await db.select().from(caregivers).where(eq(caregivers.id, id));
    return row;
  }

  /** The row, locked until the transaction ends (after the residents it links: lock order residents → caregivers). */
  async lock(db: Executor, id: number): Promise<CaregiverRow | undefined> {
    const [row] = await db.select().from(caregivers).where(eq(caregivers.id, id)).for('update');
    return row;
  }

  async findByAccountId(db: Executor, accountId: number): Promise<CaregiverRow | undefined> {
    const [row] = await db.select().from(caregivers).where(eq(caregivers.accountId, accountId));
    return row;
  }

  async byIds(db: Executor, ids: readonly number[]): Promise<CaregiverRow[]> {
    if (!ids.length) return [];
    return db
      .select()
      .from(caregivers)
      .where(inArray(caregivers.id, [...ids]))
      .orderBy(asc(caregivers.id));
  }

  /** Phones of the provider already used by a caregiver (other than `exceptId`). */
  async phonesTaken(
    db: Executor,
    providerId: number,
    phones: readonly string[],
    exceptId?: number,
  ): Promise<Set<string>> {
    if (!phones.length) return new Set();
    const rows = await db
      .select({ phone: caregivers.phone })
      .from(caregivers)
      .where(
        and(
          eq(caregivers.providerId, providerId),
          inArray(caregivers.phone, [...phones]),
          exceptId === undefined ? undefined : ne(caregivers.id, exceptId),
        ),
      );
    return new Set(rows.map((r) => r.phone));
  }

  async insert(db: Executor, values: NewCaregiverRow): Promise<CaregiverRow> {
    const [row] = await db.insert(caregivers).values(values).returning();
    if (!row) throw new Error('caregiver insert returned nothing');
    return row;
  }

  async update(db: Executor, id: number, values: Partial<NewCaregiverRow>): Promise<void> {
    await db.update(caregivers).set(values).where(eq(caregivers.id, id));
  }

  async delete(db: Executor, id: number): Promise<void> {
    await db.delete(residentCaregivers).where(eq(residentCaregivers.caregiverId, id));
    await db.delete(caregivers).where(eq(caregivers.id, id));
  }

  async page(db: Executor, q: CaregiverListQuery) {
    const conditions: (SQL | undefined)[] = [];
    if (q.providerIds)
      conditions.push(inArray(caregivers.providerId, q.providerIds.length ? [...q.providerIds] : [-1]));
    if (q.keyWord) {
      const like = escapeLike(q.keyWord);
      conditions.push(or(ilike(caregivers.name, like), ilike(caregivers.phone, like), ilike(accounts.userName, like)));
    }
    if (q.level) conditions.push(eq(caregivers.level, q.level));
    if (q.enabled !== undefined) conditions.push(eq(caregivers.enabled, q.enabled));
    if (q.id !== undefined) conditions.push(eq(caregivers.id, q.id));
    const where = and(...conditions);
    const rows = await db
      .select({ caregiver: caregivers, providerName: providers.name, userName: accounts.userName })
      .from(caregivers)
      .leftJoin(providers, eq(providers.id, caregivers.providerId))
      .leftJoin(accounts, eq(accounts.id, caregivers.accountId))
      .where(where)
      .orderBy(desc(caregivers.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db
      .select({ n: count() })
      .from(caregivers)
      .leftJoin(accounts, eq(accounts.id, caregivers.accountId))
      .where(where);
    return { rows, total: total?.n ?? 0 };
  }

  /** Linked residents of each caregiver, by name. */
  async residentsOf(
    db: Executor,
    caregiverIds: readonly number[],
  ): Promise<Map<number, { id: number; name: string }[]>> {
    const out = new Map<number, { id: number; name: string }[]>();
    if (!caregiverIds.length) return out;
    const rows = await db
      .select({ caregiverId: residentCaregivers.caregiverId, id: residents.id, name: residents.name })
      .from(residentCaregivers)
      .innerJoin(residents, eq(residents.id, residentCaregivers.residentId))
      .where(inArray(residentCaregivers.caregiverId, [...caregiverIds]))
      .orderBy(asc(residents.name), asc(residents.id));
    for (const r of rows) out.set(r.caregiverId, [...(out.get(r.caregiverId) ?? []), { id: r.id, name: r.name }]);
    return out;
  }

  /**
   * Residents by id, row-locked in id order so that concurrent link changes (from this module or
   * the residents module) on the same resident run one after the other.
   */
  async lockResidents(db: Executor, ids: readonly number[]): Promise<ResidentRef[]> {
    if (!ids.length) return [];
    return db
      .select({ id: residents.id, providerId: residents.providerId, name: residents.name })
      .from(residents)
      .where(inArray(residents.id, [...ids]))
      .orderBy(asc(residents.id))
      .for('update');
  }

  /** Caregivers linked to each resident, not counting `exceptCaregiverId`. */
  async linkCounts(
    db: Executor,
    residentIds: readonly number[],
    exceptCaregiverId?: number,
  ): Promise<Map<number, number>> {
    if (!residentIds.length) return new Map();
    const rows = await db
      .select({ residentId: residentCaregivers.residentId, n: count() })
      .from(residentCaregivers)
      .where(
        and(
          inArray(residentCaregivers.residentId, [...residentIds]),
          exceptCaregiverId === undefined ? undefined : ne(residentCaregivers.caregiverId, exceptCaregiverId),
        ),
      )
      .groupBy(residentCaregivers.residentId);
    return new Map(rows.map((r) => [r.residentId, r.n]));
  }

  async isLinked(db: Executor, caregiverId: number, residentId: number): Promise<boolean> {
    const [row] = await db
      .select({ one: sql<number>`1` })
      .from(residentCaregivers)
      .where(and(eq(residentCaregivers.caregiverId, caregiverId), eq(residentCaregivers.residentId, residentId)));
    return row !== undefined;
  }

  /** Makes the caregiver's links exactly `residentIds`. */
  async replaceLinks(db: Executor, caregiverId: number, residentIds: readonly number[]): Promise<void> {
    await db
      .delete(residentCaregivers)
      .where(
        and(
          eq(residentCaregivers.caregiverId, caregiverId),
          residentIds.length ? notInArray(residentCaregivers.residentId, [...residentIds]) : undefined,
        ),
      );
    if (residentIds.length) {
      await db
        .insert(residentCaregivers)
        .values(residentIds.map((residentId) => ({ residentId, caregiverId })))
        .onConflictDoNothing();
    }
  }
}
