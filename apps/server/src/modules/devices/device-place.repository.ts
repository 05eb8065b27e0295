import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
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

  /**
   * A place by its names, as a spreadsheet writes it: "area", "area / floor", "area / floor /
   * room" or "area / floor / room / bed" of the provider (case-insensitive); undefined when a
   * name is not found.
   */
  async byPath(
    db: Executor,
    providerId: number,
    names: readonly string[],
  ): Promise<{ areaId?: number; roomId?: number; bunkId?: number } | undefined> {
    const same = (column: AnyPgColumn, name: string) => sql`lower(${column}) = lower(${name})`;
    const [areaName, floorName, roomName, bedName] = names;
    if (areaName === undefined || names.length > 4) return undefined;
    const [area] = await db
      .select({ id: areas.id })
      .from(areas)
      .where(and(eq(areas.providerId, providerId), isNull(areas.parentId), same(areas.name, areaName)));
    if (!area || floorName === undefined) return area && { areaId: area.id };
    const [floor] = await db
      .select({ id: areas.id })
      .from(areas)
      .where(and(eq(areas.parentId, area.id), same(areas.name, floorName)));
    if (!floor || roomName === undefined) return floor && { areaId: floor.id };
    const [room] = await db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.floorId, floor.id), same(rooms.name, roomName)));
    if (!room || bedName === undefined) return room && { roomId: room.id };
    const [bed] = await db
      .select({ id: beds.id })
      .from(beds)
      .where(and(eq(beds.roomId, room.id), same(beds.name, bedName)));
    return bed && { bunkId: bed.id };
  }

  /** The provider's residents, or caregivers, of a name (case-insensitive), at most two. */
  async namedPeople(db: Executor, providerId: number, name: string, who: 'resident' | 'caregiver') {
    const table = who === 'resident' ? residents : caregivers;
    const rows = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.providerId, providerId), sql`lower(${table.name}) = lower(${name})`))
      .limit(2);
    return rows.map((r) => r.id);
  }
}
