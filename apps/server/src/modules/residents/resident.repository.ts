import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { beds, caregivers, communities, emergencyContacts, residentCaregivers, residents } from '../../db/schema.ts';

export type ResidentRecord = typeof residents.$inferSelect;
export type ContactRecord = typeof emergencyContacts.$inferSelect;
export type NewResidentRecord = Omit<
  typeof residents.$inferInsert,
  // Occupancy belongs to the facility module: a new resident takes the column defaults (registered, no room).
  'id' | 'state' | 'roomId' | 'admittedAt' | 'checkedOutAt' | 'loggedOffAt'
>;
/** The resident's own fields; occupancy columns are not writable here. */
export type ResidentChanges = Partial<
  Pick<
    ResidentRecord,
    | 'name'
    | 'gender'
    | 'birthDate'
    | 'height'
    | 'weight'
    | 'medicalHistory'
    | 'otherHistory'
    | 'priority'
    | 'remark'
    | 'communityId'
    | 'updatedAt'
  >
>;

/** Advisory-lock namespace (first key) serialising same-name checks of one provider's new residents. */
const NAME_LOCK_SPACE = 0x52455349; // "RESI"

/** Rows per INSERT statement of a batch (stays far below PostgreSQL's 65535 parameters). */
const CHUNK = 500;
const chunks = <T>(rows: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
};

/** SQL of resident rows, their emergency contacts and carer links. Reads caregivers and communities, never writes them. */
export class ResidentRepository {
  async findById(db: Executor, id: number): Promise<ResidentRecord | undefined> {
    const [row] = await db.select().from(residents).where(eq(residents.id, id));
    return row;
  }

  /** The resident row, locked until the transaction ends (check-then-write on one resident). */
  async lockById(tx: Executor, id: number): Promise<ResidentRecord | undefined> {
    const [row] = await tx.select().from(residents).where(eq(residents.id, id)).for('update');
    return row;
  }

  /** Serialises same-name checks and inserts of one provider's residents until the transaction ends. */
  async lockNames(tx: Executor, providerId: number): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${NAME_LOCK_SPACE}::int, ${providerId}::int)`);
  }

  /** Residents of the provider whose names equal any of the given ones, ignoring case. */
  async sameNames(
    db: Executor,
    providerId: number,
    lowerNames: readonly string[],
    exceptId?: number,
  ): Promise<{ id: number; lowerName: string }[]> {
    if (!lowerNames.length) return [];
    return db
      .select({ id: residents.id, lowerName: sql<string>`lower(${residents.name})` })
      .from(residents)
      .where(
        and(
          eq(residents.providerId, providerId),
          inArray(sql`lower(${residents.name})`, [...lowerNames]),
          exceptId === undefined ? undefined : sql`${residents.id} <> ${exceptId}`,
        ),
      )
      .orderBy(asc(residents.id));
  }

  async hasBed(db: Executor, residentId: number): Promise<boolean> {
    const [row] = await db.select({ id: beds.id }).from(beds).where(eq(beds.residentId, residentId));
    return row !== undefined;
  }

  async communityOf(db: Executor, id: number): Promise<{ id: number; providerId: number } | undefined> {
    const [row] = await db
      .select({ id: communities.id, providerId: communities.providerId })
      .from(communities)
      .where(eq(communities.id, id));
    return row;
  }

  /**
   * Caregivers by id, locked until the transaction ends, in id order (the lock order of carer
   * links: resident row first, then caregivers by id), so the residents-per-carer limit holds
   * under concurrent links.
   */
  async lockCaregivers(
    tx: Executor,
    ids: readonly number[],
  ): Promise<{ id: number; providerId: number; name: string }[]> {
    if (!ids.length) return [];
    return tx
      .select({ id: caregivers.id, providerId: caregivers.providerId, name: caregivers.name })
      .from(caregivers)
      .where(inArray(caregivers.id, [...ids]))
      .orderBy(asc(caregivers.id))
      .for('update');
  }

  /** How many residents each caregiver looks after now. */
  async residentCounts(db: Executor, caregiverIds: readonly number[]): Promise<Map<number, number>> {
    if (!caregiverIds.length) return new Map();
    const rows = await db
      .select({ id: residentCaregivers.caregiverId, n: count() })
      .from(residentCaregivers)
      .where(inArray(residentCaregivers.caregiverId, [...caregiverIds]))
      .groupBy(residentCaregivers.caregiverId);
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  async caregiverIdsOf(db: Executor, residentId: number): Promise<number[]> {
    const rows = await db
      .select({ id: residentCaregivers.caregiverId })
      .from(residentCaregivers)
      .where(eq(residentCaregivers.residentId, residentId));
    return rows.map((r) => r.id);
  }

  async contactsOf(db: Executor, residentId: number): Promise<ContactRecord[]> {
    return db
      .select()
      .from(emergencyContacts)
      .where(eq(emergencyContacts.residentId, residentId))
      .orderBy(asc(emergencyContacts.sort), asc(emergencyContacts.id));
  }

  /** Emergency contacts of many residents (exports), in each resident's order. */
  async contactsOfMany(db: Executor, residentIds: readonly number[]): Promise<Map<number, ContactRecord[]>> {
    const out = new Map<number, ContactRecord[]>();
    for (const part of chunks(residentIds)) {
      const rows = await db
        .select()
        .from(emergencyContacts)
        .where(inArray(emergencyContacts.residentId, part))
        .orderBy(asc(emergencyContacts.residentId), asc(emergencyContacts.sort), asc(emergencyContacts.id));
      for (const row of rows) out.set(row.residentId, [...(out.get(row.residentId) ?? []), row]);
    }
    return out;
  }

  async insertMany(tx: Executor, rows: readonly NewResidentRecord[]): Promise<number[]> {
    const ids: number[] = [];
    for (const part of chunks(rows)) {
      const inserted = await tx.insert(residents).values(part).returning({ id: residents.id });
      ids.push(...inserted.map((r) => r.id));
    }
    if (ids.length !== rows.length) throw new Error('resident insert returned fewer rows');
    return ids;
  }

  async update(tx: Executor, id: number, changes: ResidentChanges): Promise<void> {
    await tx.update(residents).set(changes).where(eq(residents.id, id));
  }

  /** Deletes the resident; contacts, absences and carer links go with it (foreign keys cascade). */
  async delete(tx: Executor, id: number): Promise<void> {
    await tx.delete(residents).where(eq(residents.id, id));
  }

  async insertContacts(tx: Executor, rows: readonly (typeof emergencyContacts.$inferInsert)[]): Promise<void> {
    for (const part of chunks(rows)) await tx.insert(emergencyContacts).values(part);
  }

  async updateContact(
    tx: Executor,
    id: number,
    values: Pick<ContactRecord, 'name' | 'phone' | 'relation' | 'sort'>,
  ): Promise<void> {
    await tx.update(emergencyContacts).set(values).where(eq(emergencyContacts.id, id));
  }

  async deleteContacts(tx: Executor, ids: readonly number[]): Promise<void> {
    if (ids.length) await tx.delete(emergencyContacts).where(inArray(emergencyContacts.id, [...ids]));
  }

  async linkCarers(tx: Executor, rows: readonly { residentId: number; caregiverId: number }[]): Promise<void> {
    for (const part of chunks(rows)) await tx.insert(residentCaregivers).values(part).onConflictDoNothing();
  }

  async unlinkCarers(tx: Executor, residentId: number, caregiverIds: readonly number[]): Promise<void> {
    if (!caregiverIds.length) return;
    await tx
      .delete(residentCaregivers)
      .where(
        and(eq(residentCaregivers.residentId, residentId), inArray(residentCaregivers.caregiverId, [...caregiverIds])),
      );
  }
}
