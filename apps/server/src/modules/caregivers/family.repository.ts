import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { emergencyContacts, residents } from '../../db/schema.ts';

/** A relative's binding to a resident: an emergency contact, with the resident's provider (its tenant). */
export interface FamilyBinding {
  id: number;
  residentId: number;
  providerId: number;
  phone: string;
  relation: string;
}

/** Relatives' bindings (emergency contacts; the residents module owns them): read one, remove one. */
export class FamilyRepository {
  async findById(db: Executor, id: number): Promise<FamilyBinding | undefined> {
    const [row] = await db
      .select({
        id: emergencyContacts.id,
        residentId: emergencyContacts.residentId,
        providerId: residents.providerId,
        phone: emergencyContacts.phone,
        relation: emergencyContacts.relation,
      })
      .from(emergencyContacts)
      .innerJoin(residents, eq(residents.id, emergencyContacts.residentId))
      .where(eq(emergencyContacts.id, id));
    return row;
  }

  async delete(db: Executor, id: number): Promise<void> {
    await db.delete(emergencyContacts).where(eq(emergencyContacts.id, id));
  }
}
