import type { AlarmType } from '@vigil/contract';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { alarms, areas, beds, caregivers, devices, residents, rooms } from '../../db/schema.ts';
import { containsPattern } from '../devices/device.policy.ts';

/** Pending on the consoles: open, or cleared by itself but latching until a person handles it. */
const pending = or(eq(alarms.releaseKind, 0), eq(alarms.awaitingAck, true));

/** The area row the alarm was placed in (a floor, or an area of its own), and the one above it. */
const placeArea = alias(areas, 'place_area');
const parentArea = alias(areas, 'parent_area');

/**
 * The room and area the alarm stamped at raise time (decision 0046); alarms raised before the
 * stamp existed name their bed's room and floor, as they did.
 */
const roomOfAlarm = sql`coalesce(${alarms.roomId}, ${beds.roomId})`;
const areaOfAlarm = sql`coalesce(${alarms.areaId}, ${rooms.floorId})`;

/** An alarm with the names of where it was raised, for the lists and the socket. */
const columns = {
  alarm: alarms,
  bedName: beds.name,
  roomName: rooms.name,
  // A floor has an area above it; an area of its own has none (then it is the area, not a floor).
  floorName: sql<string | null>`case when ${parentArea.id} is null then null else ${placeArea.name} end`,
  areaName: sql<string | null>`coalesce(${parentArea.name}, ${placeArea.name})`,
  residentName: residents.name,
  caregiverName: caregivers.name,
  deviceName: devices.name,
};
export type AlarmView = {
  alarm: typeof alarms.$inferSelect;
  bedName: string | null;
  roomName: string | null;
  floorName: string | null;
  areaName: string | null;
  residentName: string | null;
  /** The caregiver who wore the device (a nurse watch). */
  caregiverName: string | null;
  /** The device's name now ("Bathroom door"), as its texts name it after the place. */
  deviceName: string | null;
};

export interface AlarmPlaceFilter {
  roomId?: number | undefined;
  /** A floor or an area: alarms in it or in a room of it, or of a floor of it. */
  areaId?: number | undefined;
}

export interface AlarmListQuery {
  providerIds: readonly number[] | null;
  open: boolean;
  from?: Date;
  to?: Date;
  keyWord?: string;
  place?: AlarmPlaceFilter;
  alertType?: AlarmType;
  level?: number;
  orderBy: 'timeStamp' | 'alertLevel';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** The alarm lists' SQL: pending and processed alarms with their bed, room, floor, area and resident. */
export class AlarmQueryRepository {
  async page(db: Executor, q: AlarmListQuery): Promise<{ rows: AlarmView[]; total: number }> {
    const where = this.conditions(q);
    const direction = q.order === 'asc' ? asc : desc;
    const order =
      q.orderBy === 'alertLevel'
        ? [direction(alarms.level), desc(alarms.raisedAt), desc(alarms.id)]
        : [direction(alarms.raisedAt), direction(alarms.id)];
    // Page the ids first (one indexed table), then join the names for that page only.
    const ids = db
      .select({ id: alarms.id })
      .from(alarms)
      .leftJoin(residents, eq(residents.id, alarms.residentId))
      .leftJoin(beds, eq(beds.id, alarms.bedId))
      .leftJoin(rooms, eq(rooms.id, roomOfAlarm))
      .where(where)
      .orderBy(...order)
      .limit(q.limit)
      .offset(q.offset);
    const [rows, [total]] = await Promise.all([
      this.joined(db)
        .where(inArray(alarms.id, ids))
        .orderBy(...order),
      db
        .select({ n: count() })
        .from(alarms)
        .leftJoin(residents, eq(residents.id, alarms.residentId))
        .leftJoin(beds, eq(beds.id, alarms.bedId))
        .leftJoin(rooms, eq(rooms.id, roomOfAlarm))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async byId(db: Executor, id: number): Promise<AlarmView | undefined> {
    const [row] = await this.joined(db).where(eq(alarms.id, id));
    return row;
  }

  /** A resident's alarms raised since an instant, of the providers (all with null), newest first. */
  ofResidentSince(
    db: Executor,
    residentId: number,
    since: Date,
    providerIds: readonly number[] | null,
    limit = 500,
  ): Promise<AlarmView[]> {
    return this.joined(db)
      .where(and(eq(alarms.residentId, residentId), gte(alarms.raisedAt, since), scoped(providerIds)))
      .orderBy(desc(alarms.raisedAt), desc(alarms.id))
      .limit(limit);
  }

  /** Pending alarms of the providers (all of them with null): the bell's count. */
  async openCount(db: Executor, providerIds: readonly number[] | null): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(alarms)
      .where(and(pending, scoped(providerIds)));
    return row?.n ?? 0;
  }

  private joined(db: Executor) {
    return db
      .select(columns)
      .from(alarms)
      .leftJoin(beds, eq(beds.id, alarms.bedId))
      .leftJoin(rooms, eq(rooms.id, roomOfAlarm))
      .leftJoin(placeArea, eq(placeArea.id, areaOfAlarm))
      .leftJoin(parentArea, eq(parentArea.id, placeArea.parentId))
      .leftJoin(residents, eq(residents.id, alarms.residentId))
      .leftJoin(caregivers, eq(caregivers.id, alarms.caregiverId))
      .leftJoin(devices, eq(devices.id, alarms.deviceRowId));
  }

  private conditions(q: AlarmListQuery): SQL | undefined {
    const conditions: (SQL | undefined)[] = [
      q.open ? pending : and(ne(alarms.releaseKind, 0), eq(alarms.awaitingAck, false)),
      scoped(q.providerIds),
    ];
    if (q.from) conditions.push(gte(alarms.raisedAt, q.from));
    if (q.to) conditions.push(lt(alarms.raisedAt, q.to));
    if (q.place?.roomId !== undefined) conditions.push(sql`${roomOfAlarm} = ${q.place.roomId}`);
    if (q.place?.areaId !== undefined) {
      const areaId = q.place.areaId;
      conditions.push(
        sql`(${areaOfAlarm} = ${areaId} or ${areaOfAlarm} in (select ${areas.id} from ${areas} where ${areas.parentId} = ${areaId}))`,
      );
    }
    if (q.alertType) conditions.push(eq(alarms.alertType, q.alertType));
    if (q.level) conditions.push(eq(alarms.level, q.level));
    if (q.keyWord) {
      const like = containsPattern(q.keyWord);
      conditions.push(
        or(ilike(alarms.deviceId, like), ilike(residents.name, like), ilike(beds.name, like), ilike(rooms.name, like)),
      );
    }
    return and(...conditions);
  }
}

/** Alarms of these providers; an alarm of a device in stock (no provider) is nobody's. */
const scoped = (providerIds: readonly number[] | null): SQL =>
  providerIds === null
    ? sql`${alarms.providerId} is not null`
    : inArray(alarms.providerId, providerIds.length ? [...providerIds] : [-1]);
