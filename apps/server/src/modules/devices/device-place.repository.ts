import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { areas, beds, caregivers, residents, rooms } from '../../db/schema.ts';

/** What a place is checked against: its provider, and for a bed its room. */
export interface PlaceTarget {
  providerId: number;
  roomId?: number;
}

/**
 * The rows a device's place names (decision 0046), read-only: the facility, residents and
 * caregivers modules own them; the devices module only checks a place exists and whose it is.
 */
export class DevicePlaceRepository {
  async room(db: Executor, id: number): Promise<PlaceTarget | undefined> {
    const [row] = await db.select({ providerId: rooms.providerId }).from(rooms).where(eq(rooms.id, id));
    return row;
  }

  async bed(db: Executor, id: number): Promise<PlaceTarget | undefined> {
    const [row] = await db
      .select({ providerId: beds.providerId, roomId: beds.roomId })
      .from(beds)
      .where(eq(beds.id, id));
    return row;
  }

  async area(db: Executor, id: number): Promise<PlaceTarget | undefined> {
    const [row] = await db.select({ providerId: areas.providerId }).from(areas).where(eq(areas.id, id));
    return row;
  }

  async resident(db: Executor, id: number): Promise<PlaceTarget | undefined> {
    const [row] = await db.select({ providerId: residents.providerId }).from(residents).where(eq(residents.id, id));
    return row;
  }

  async caregiver(db: Executor, id: number): Promise<PlaceTarget | undefined> {
    const [row] = await db.select({ providerId: caregivers.providerId }).from(caregivers).where(eq(caregivers.id, id));
    return row;
  }
}
