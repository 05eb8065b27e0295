import { and, desc, eq, gt, gte, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { residentAbsences } from '../../db/schema.ts';

export type AbsenceRecord = typeof residentAbsences.$inferSelect;

/** SQL of temporary absences (resident_absence). */
export class AbsenceRepository {
  /**
   * The absence not yet ended at `now` (under way or planned) of the resident's current stay
   * (starting at or after `admittedAt`); at most one exists. Absences of an earlier stay never count.
   */
  async open(db: Executor, residentId: number, now: Date, admittedAt: Date | null): Promise<AbsenceRecord | undefined> {
    const [row] = await db
      .select()
      .from(residentAbsences)
      .where(
        and(
          eq(residentAbsences.residentId, residentId),
          or(isNull(residentAbsences.endsAt), gt(residentAbsences.endsAt, now)),
          admittedAt ? gte(residentAbsences.startsAt, admittedAt) : undefined,
        ),
      )
      .orderBy(desc(residentAbsences.startsAt))
      .limit(1);
    return row;
  }

  /** Every absence of the resident not ended at `now`, as the alarm engine reads them. */
  async notEnded(db: Executor, residentId: number, now: Date): Promise<AbsenceRecord[]> {
    return db
      .select()
      .from(residentAbsences)
      .where(
        and(
          eq(residentAbsences.residentId, residentId),
          or(isNull(residentAbsences.endsAt), gt(residentAbsences.endsAt, now)),
        ),
      );
  }

  async insert(tx: Executor, values: typeof residentAbsences.$inferInsert): Promise<AbsenceRecord> {
    const [row] = await tx.insert(residentAbsences).values(values).returning();
    if (!row) throw new Error('absence insert returned nothing');
    return row;
  }

  async end(tx: Executor, id: number, at: Date): Promise<void> {
    await tx.update(residentAbsences).set({ endsAt: at }).where(eq(residentAbsences.id, id));
  }

  async delete(tx: Executor, id: number): Promise<void> {
    await tx.delete(residentAbsences).where(eq(residentAbsences.id, id));
  }
}
