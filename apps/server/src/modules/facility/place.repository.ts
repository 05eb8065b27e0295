import { and, count, eq, inArray, ne, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { areas, beds, residents, rooms } from '../../db/schema.ts';

export type AreaRow = typeof areas.$inferSelect;
export type RoomRow = typeof rooms.$inferSelect;
export type BedRow = typeof beds.$inferSelect;

/** Lower-case names, compared the way the unique indexes compare them. */
const lowerIn = (column: AnyColumn, names: readonly string[]): SQL =>
  sql`lower(${column}) in (${sql.join(
    names.map((n) => sql`lower(${n})`),
    sql`, `,
  )})`;

/** Areas, floors, rooms and beds: rows by id (optionally locked), names taken, inserts, updates, deletes. */
export class PlaceRepository {
  async area(db: Executor, id: number, lock = false): Promise<AreaRow | undefined> {
    const query = db.select().from(areas).where(eq(areas.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  async room(db: Executor, id: number, lock = false): Promise<RoomRow | undefined> {
    const query = db.select().from(rooms).where(eq(rooms.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  async bed(db: Executor, id: number, lock = false): Promise<BedRow | undefined> {
    const query = db.select().from(beds).where(eq(beds.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  /** An area (parent null) or a floor (parent = its area) with this name, other than `exceptId`. */
  async areaNameTaken(
    db: Executor,
    providerId: number,
    parentId: number | null,
    name: string,
    exceptId?: number,
  ): Promise<boolean> {
    const [row] = await db
      .select({ id: areas.id })
      .from(areas)
      .where(
        and(
          eq(areas.providerId, providerId),
          sql`coalesce(${areas.parentId}, 0) = ${parentId ?? 0}`,
          lowerIn(areas.name, [name]),
          exceptId === undefined ? undefined : ne(areas.id, exceptId),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  async insertArea(db: Executor, values: typeof areas.$inferInsert): Promise<AreaRow> {
    const [row] = await db.insert(areas).values(values).returning();
    if (!row) throw new Error('area insert returned nothing');
    return row;
  }

  async updateArea(db: Executor, id: number, values: Partial<typeof areas.$inferInsert>): Promise<void> {
    await db.update(areas).set(values).where(eq(areas.id, id));
  }

  async deleteArea(db: Executor, id: number): Promise<void> {
    await db.delete(areas).where(eq(areas.id, id));
  }

  async floorCount(db: Executor, areaId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(areas).where(eq(areas.parentId, areaId));
    return row?.n ?? 0;
  }

  async roomCount(db: Executor, floorId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(rooms).where(eq(rooms.floorId, floorId));
    return row?.n ?? 0;
  }

  /** Those of `names` already used by rooms of the floor (as stored), other than room `exceptId`. */
  async roomNamesTaken(db: Executor, floorId: number, names: readonly string[], exceptId?: number): Promise<string[]> {
    if (!names.length) return [];
    const rows = await db
      .select({ name: rooms.name })
      .from(rooms)
      .where(
        and(
          eq(rooms.floorId, floorId),
          lowerIn(rooms.name, names),
          exceptId === undefined ? undefined : ne(rooms.id, exceptId),
        ),
      );
    return rows.map((r) => r.name);
  }

  async insertRooms(db: Executor, values: (typeof rooms.$inferInsert)[]): Promise<RoomRow[]> {
    if (!values.length) return [];
    return db.insert(rooms).values(values).returning();
  }

  async updateRoom(db: Executor, id: number, values: Partial<typeof rooms.$inferInsert>): Promise<void> {
    await db.update(rooms).set(values).where(eq(rooms.id, id));
  }

  async deleteRoom(db: Executor, id: number): Promise<void> {
    await db.delete(rooms).where(eq(rooms.id, id));
  }

  async bedCount(db: Executor, roomId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(beds).where(eq(beds.roomId, roomId));
    return row?.n ?? 0;
  }

  /** Residents whose address (room link) is this room: checked in, or checked out and not yet logged off. */
  async addressCount(db: Executor, roomId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(residents).where(eq(residents.roomId, roomId));
    return row?.n ?? 0;
  }

  async bedNamesTaken(db: Executor, roomId: number, names: readonly string[], exceptId?: number): Promise<string[]> {
    if (!names.length) return [];
    const rows = await db
      .select({ name: beds.name })
      .from(beds)
      .where(
        and(
          eq(beds.roomId, roomId),
          lowerIn(beds.name, names),
          exceptId === undefined ? undefined : ne(beds.id, exceptId),
        ),
      );
    return rows.map((r) => r.name);
  }

  async insertBeds(db: Executor, values: (typeof beds.$inferInsert)[]): Promise<BedRow[]> {
    if (!values.length) return [];
    return db.insert(beds).values(values).returning();
  }

  async updateBed(db: Executor, id: number, values: Partial<typeof beds.$inferInsert>): Promise<void> {
    await db.update(beds).set(values).where(eq(beds.id, id));
  }

  async deleteBed(db: Executor, id: number): Promise<void> {
    await db.delete(beds).where(eq(beds.id, id));
  }

  /** Areas (parent null) of a provider by lower-case name, for imports that find or create the hierarchy. */
  async areasNamed(db: Executor, providerId: number, parentIds: readonly (number | null)[]): Promise<AreaRow[]> {
    const topLevel = parentIds.includes(null);
    const children = parentIds.filter((p): p is number => p !== null);
    const conditions: SQL[] = [];
    if (topLevel) conditions.push(sql`${areas.parentId} is null`);
    if (children.length) conditions.push(inArray(areas.parentId, children));
    if (!conditions.length) return [];
    return db
      .select()
      .from(areas)
      .where(and(eq(areas.providerId, providerId), sql`(${sql.join(conditions, sql` or `)})`));
  }

  async roomsOfFloors(db: Executor, floorIds: readonly number[]): Promise<RoomRow[]> {
    if (!floorIds.length) return [];
    return db
      .select()
      .from(rooms)
      .where(inArray(rooms.floorId, [...floorIds]));
  }

  async bedsOfRooms(db: Executor, roomIds: readonly number[]): Promise<BedRow[]> {
    if (!roomIds.length) return [];
    return db
      .select()
      .from(beds)
      .where(inArray(beds.roomId, [...roomIds]));
  }
}
