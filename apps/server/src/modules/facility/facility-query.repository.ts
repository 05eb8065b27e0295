import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { areas, beds, devices, providers, residents, rooms } from '../../db/schema.ts';
import { containsPattern } from '../../db/sql-filters.ts';

/** Read models of the facility: lists with paths and counts, the tree, the summary. */

const floor = alias(areas, 'floor');
const top = alias(areas, 'top_area');
const parent = alias(areas, 'parent_area');

const within = (column: AnyColumn, ids: readonly number[] | null): SQL | undefined =>
  ids === null ? undefined : inArray(column, ids.length ? [...ids] : [-1]);

export interface BedFilter {
  /** Providers whose beds are listed; null: every provider. */
  providerIds: readonly number[] | null;
  ids?: readonly number[] | undefined;
  keyWord?: string | undefined;
  /** An area or a floor. */
  areaId?: number | undefined;
  roomId?: number | undefined;
  roomName?: string | undefined;
  free?: boolean | undefined;
  hasDevice?: boolean | undefined;
}

export interface RoomFilter {
  providerIds: readonly number[] | null;
  ids?: readonly number[] | undefined;
  keyWord?: string | undefined;
  areaId?: number | undefined;
}

export interface AreaFilter {
  providerIds: readonly number[] | null;
  keyWord?: string | undefined;
  /** Floors of this area; undefined: the top-level areas. */
  parentId?: number | undefined;
}

export interface Page {
  offset: number;
  limit: number;
}

export interface Counts {
  bedCount: number;
  occupiedCount: number;
  deviceCount: number;
}

const bedColumns = {
  id: beds.id,
  providerId: beds.providerId,
  providerName: providers.name,
  areaId: top.id,
  areaName: top.name,
  floorId: floor.id,
  floorName: floor.name,
  roomId: rooms.id,
  roomName: rooms.name,
  name: beds.name,
  mattress: beds.mattress,
  deviceRowId: beds.deviceId,
  deviceId: devices.deviceId,
  deviceType: devices.typeCode,
  userId: beds.residentId,
  userName: residents.name,
  remark: beds.remark,
  createdAt: beds.createdAt,
};
export interface BedView {
  id: number;
  providerId: number;
  providerName: string;
  areaId: number;
  areaName: string;
  floorId: number;
  floorName: string;
  roomId: number;
  roomName: string;
  name: string;
  mattress: string;
  deviceRowId: number | null;
  deviceId: string | null;
  deviceType: number | null;
  userId: number | null;
  userName: string | null;
  remark: string | null;
  createdAt: Date;
}

const bedOrder = [
  asc(providers.name),
  asc(top.sort),
  sql`lower(${top.name})`,
  asc(floor.sort),
  sql`lower(${floor.name})`,
  sql`lower(${rooms.name})`,
  sql`lower(${beds.name})`,
  asc(beds.id),
];

const roomOrder = [
  asc(providers.name),
  asc(top.sort),
  sql`lower(${top.name})`,
  asc(floor.sort),
  sql`lower(${floor.name})`,
  sql`lower(${rooms.name})`,
  asc(rooms.id),
];

export class FacilityQueryRepository {
  private bedWhere(f: BedFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [within(beds.providerId, f.providerIds)];
    if (f.ids) conditions.push(inArray(beds.id, f.ids.length ? [...f.ids] : [-1]));
    if (f.areaId !== undefined) conditions.push(or(eq(top.id, f.areaId), eq(floor.id, f.areaId)));
    if (f.roomId !== undefined) conditions.push(eq(rooms.id, f.roomId));
    if (f.roomName !== undefined) conditions.push(sql`lower(${rooms.name}) = lower(${f.roomName})`);
    if (f.free !== undefined) conditions.push(f.free ? isNull(beds.residentId) : isNotNull(beds.residentId));
    if (f.hasDevice !== undefined) conditions.push(f.hasDevice ? isNotNull(beds.deviceId) : isNull(beds.deviceId));
    if (f.keyWord) {
      const like = containsPattern(f.keyWord);
      conditions.push(
        or(
          ilike(beds.name, like),
          ilike(rooms.name, like),
          ilike(floor.name, like),
          ilike(top.name, like),
          ilike(residents.name, like),
          ilike(devices.deviceId, like),
        ),
      );
    }
    return and(...conditions);
  }

  private bedsFrom<T extends Record<string, unknown>>(db: Executor, columns: T) {
    return db
      .select(columns as never)
      .from(beds)
      .innerJoin(rooms, eq(rooms.id, beds.roomId))
      .innerJoin(floor, eq(floor.id, rooms.floorId))
      .innerJoin(top, eq(top.id, floor.parentId))
      .innerJoin(providers, eq(providers.id, beds.providerId))
      .leftJoin(devices, eq(devices.id, beds.deviceId))
      .leftJoin(residents, eq(residents.id, beds.residentId));
  }

  async beds(db: Executor, f: BedFilter, page?: Page): Promise<{ rows: BedView[]; total: number }> {
    const where = this.bedWhere(f);
    const query = this.bedsFrom(db, bedColumns)
      .where(where)
      .orderBy(...bedOrder);
    const rows = (page ? await query.limit(page.limit).offset(page.offset) : await query) as unknown as BedView[];
    if (!page) return { rows, total: rows.length };
    const [total] = (await this.bedsFrom(db, { n: count() }).where(where)) as unknown as { n: number }[];
    return { rows, total: total?.n ?? 0 };
  }

  /** Per-room bed counts. */
  async roomCounts(db: Executor, roomIds: readonly number[]): Promise<Map<number, Counts>> {
    if (!roomIds.length) return new Map();
    const rows = await db
      .select({
        roomId: beds.roomId,
        bedCount: count(),
        occupiedCount: count(beds.residentId),
        deviceCount: count(beds.deviceId),
      })
      .from(beds)
      .where(inArray(beds.roomId, [...roomIds]))
      .groupBy(beds.roomId);
    return new Map(rows.map((r) => [r.roomId, r]));
  }

  async rooms(db: Executor, f: RoomFilter, page?: Page) {
    const conditions: (SQL | undefined)[] = [within(rooms.providerId, f.providerIds)];
    if (f.ids) conditions.push(inArray(rooms.id, f.ids.length ? [...f.ids] : [-1]));
    if (f.areaId !== undefined) conditions.push(or(eq(top.id, f.areaId), eq(floor.id, f.areaId)));
    if (f.keyWord) {
      const like = containsPattern(f.keyWord);
      conditions.push(or(ilike(rooms.name, like), ilike(floor.name, like), ilike(top.name, like)));
    }
    const where = and(...conditions);
    const from = <T extends Record<string, unknown>>(columns: T) =>
      db
        .select(columns as never)
        .from(rooms)
        .innerJoin(floor, eq(floor.id, rooms.floorId))
        .innerJoin(top, eq(top.id, floor.parentId))
        .innerJoin(providers, eq(providers.id, rooms.providerId));
    const query = from({
      id: rooms.id,
      providerId: rooms.providerId,
      providerName: providers.name,
      areaId: top.id,
      areaName: top.name,
      floorId: floor.id,
      floorName: floor.name,
      name: rooms.name,
      remark: rooms.remark,
      createdAt: rooms.createdAt,
    })
      .where(where)
      .orderBy(...roomOrder);
    type RoomView = {
      id: number;
      providerId: number;
      providerName: string;
      areaId: number;
      areaName: string;
      floorId: number;
      floorName: string;
      name: string;
      remark: string | null;
      createdAt: Date;
    };
    const rows = (page ? await query.limit(page.limit).offset(page.offset) : await query) as unknown as RoomView[];
    let total = rows.length;
    if (page) {
      const [n] = (await from({ n: count() }).where(where)) as unknown as { n: number }[];
      total = n?.n ?? 0;
    }
    return { rows, total };
  }

  async areas(db: Executor, f: AreaFilter, page: Page) {
    const conditions: (SQL | undefined)[] = [
      within(areas.providerId, f.providerIds),
      f.parentId === undefined ? isNull(areas.parentId) : eq(areas.parentId, f.parentId),
    ];
    if (f.keyWord) conditions.push(ilike(areas.name, containsPattern(f.keyWord)));
    const where = and(...conditions);
    const rows = await db
      .select({
        area: areas,
        providerName: providers.name,
        parentName: parent.name,
      })
      .from(areas)
      .innerJoin(providers, eq(providers.id, areas.providerId))
      .leftJoin(parent, eq(parent.id, areas.parentId))
      .where(where)
      .orderBy(asc(providers.name), asc(areas.sort), sql`lower(${areas.name})`, asc(areas.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await db.select({ n: count() }).from(areas).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  /** Per floor of the given areas or floors: rooms and bed counts (floors without rooms are absent). */
  async floorCounts(db: Executor, ids: readonly number[]) {
    if (!ids.length) return [];
    return db
      .select({
        floorId: floor.id,
        areaId: floor.parentId,
        roomCount: sql<number>`count(distinct ${rooms.id})::int`,
        bedCount: count(beds.id),
        occupiedCount: count(beds.residentId),
        deviceCount: count(beds.deviceId),
      })
      .from(floor)
      .innerJoin(rooms, eq(rooms.floorId, floor.id))
      .leftJoin(beds, eq(beds.roomId, rooms.id))
      .where(or(inArray(floor.id, [...ids]), inArray(floor.parentId, [...ids])))
      .groupBy(floor.id, floor.parentId);
  }

  /** Number of floors of each of the given areas. */
  async floorsPerArea(db: Executor, areaIds: readonly number[]): Promise<Map<number, number>> {
    if (!areaIds.length) return new Map();
    const rows = await db
      .select({ areaId: areas.parentId, n: count() })
      .from(areas)
      .where(inArray(areas.parentId, [...areaIds]))
      .groupBy(areas.parentId);
    return new Map(rows.map((r) => [r.areaId ?? 0, r.n]));
  }

  /** Every area and floor of the providers, with provider names (for the tree and the picker). */
  async allAreas(db: Executor, providerIds: readonly number[] | null) {
    return db
      .select({ area: areas, providerName: providers.name })
      .from(areas)
      .innerJoin(providers, eq(providers.id, areas.providerId))
      .where(within(areas.providerId, providerIds))
      .orderBy(asc(providers.name), asc(areas.sort), sql`lower(${areas.name})`, asc(areas.id));
  }

  async allRooms(db: Executor, providerIds: readonly number[] | null) {
    return db
      .select()
      .from(rooms)
      .where(within(rooms.providerId, providerIds))
      .orderBy(sql`lower(${rooms.name})`, asc(rooms.id));
  }

  /** Bed counts per room of the providers. */
  async countsByRoom(db: Executor, providerIds: readonly number[] | null): Promise<Map<number, Counts>> {
    const rows = await db
      .select({
        roomId: beds.roomId,
        bedCount: count(),
        occupiedCount: count(beds.residentId),
        deviceCount: count(beds.deviceId),
      })
      .from(beds)
      .where(within(beds.providerId, providerIds))
      .groupBy(beds.roomId);
    return new Map(rows.map((r) => [r.roomId, r]));
  }

  /** Residents per room of the providers whose address the room is (what keeps a room from deletion). */
  async residentsByRoom(db: Executor, providerIds: readonly number[] | null): Promise<Map<number, number>> {
    const rows = await db
      .select({ roomId: residents.roomId, n: count() })
      .from(residents)
      .where(and(isNotNull(residents.roomId), within(residents.providerId, providerIds)))
      .groupBy(residents.roomId);
    return new Map(rows.flatMap((r) => (r.roomId === null ? [] : [[r.roomId, r.n] as const])));
  }

  /** Bed totals per top-level area of the providers (areas without beds included). */
  async summaryByArea(db: Executor, providerIds: readonly number[] | null) {
    return db
      .select({
        areaId: top.id,
        areaName: top.name,
        providerId: top.providerId,
        providerName: providers.name,
        total: count(beds.id),
        occupied: count(beds.residentId),
        withDevice: count(beds.deviceId),
      })
      .from(top)
      .innerJoin(providers, eq(providers.id, top.providerId))
      .leftJoin(floor, eq(floor.parentId, top.id))
      .leftJoin(rooms, eq(rooms.floorId, floor.id))
      .leftJoin(beds, eq(beds.roomId, rooms.id))
      .where(and(isNull(top.parentId), within(top.providerId, providerIds)))
      .groupBy(top.id, top.name, top.providerId, top.sort, providers.name)
      .orderBy(asc(providers.name), asc(top.sort), sql`lower(${top.name})`, asc(top.id));
  }
}
