import {
  and,
  asc,
  count,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  min,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { alarms, areas, beds, communities, devices, residentAbsences, residents, rooms } from '../../db/schema.ts';
import { containsPattern } from '../devices/device.policy.ts';
import { SLEEP_MONITOR_CODES } from './sleep-monitors.ts';

const floor = alias(areas, 'floor');
const topArea = alias(areas, 'top_area');

/** Which residents a monitoring list shows. */
export interface LiveListQuery {
  /** null: every provider. */
  providerIds: readonly number[] | null;
  keyWord?: string | undefined;
  /** An area or a floor: the bed is inside it. */
  areaId?: number | undefined;
  communityId?: number | undefined;
  /** Only residents with an open alarm. */
  openAlarm?: boolean;
  /** With a sleep monitor on the bed (true), or without one (false); undefined: either. */
  sleepMonitor?: boolean;
  now: Date;
}

/** The same rule as the residents list's `away`: an absence under way now, since the latest admission. */
const awayAt = (now: Date) =>
  sql<boolean>`(${residents.state} = 'checkedIn' and exists (select 1 from ${residentAbsences} where ${residentAbsences.residentId} = ${residents.id} and ${residentAbsences.startsAt} >= coalesce(${residents.admittedAt}, '-infinity'::timestamptz) and ${residentAbsences.startsAt} <= ${now.toISOString()}::timestamptz and (${residentAbsences.endsAt} is null or ${residentAbsences.endsAt} > ${now.toISOString()}::timestamptz)))`;

const fields = (now: Date) => ({
  residentId: residents.id,
  providerId: residents.providerId,
  name: residents.name,
  gender: residents.gender,
  birthDate: residents.birthDate,
  bedId: beds.id,
  bedName: beds.name,
  roomId: rooms.id,
  roomName: rooms.name,
  floorName: floor.name,
  areaName: topArea.name,
  communityName: communities.name,
  deviceId: devices.deviceId,
  deviceType: devices.typeCode,
  away: awayAt(now),
});

/** A resident with where they lie, the device of their bed and the names the screens show. */
export type LiveResidentRow = Awaited<ReturnType<MonitorQueryRepository['byIds']>>[number];

/** By area, floor, room and bed name; a floor without a parent is itself the area. */
const ORDER = [
  asc(sql`coalesce(${topArea.name}, ${floor.name})`),
  asc(sql`case when ${topArea.id} is null then '' else ${floor.name} end`),
  asc(rooms.name),
  asc(beds.name),
  asc(residents.id),
];

/** The monitoring screens' SQL: residents with bed, room, floor, area, community and bed device. */
export class MonitorQueryRepository {
  private joined(db: Executor, now: Date) {
    return db
      .select(fields(now))
      .from(residents)
      .leftJoin(beds, eq(beds.residentId, residents.id))
      .leftJoin(rooms, eq(rooms.id, sql`coalesce(${beds.roomId}, ${residents.roomId})`))
      .leftJoin(floor, eq(floor.id, rooms.floorId))
      .leftJoin(topArea, eq(topArea.id, floor.parentId))
      .leftJoin(communities, eq(communities.id, residents.communityId))
      .leftJoin(devices, eq(devices.id, beds.deviceId));
  }

  /** Checked-in residents in a bed, in the list's order: one page and the total. */
  async page(db: Executor, q: LiveListQuery, offset: number, limit: number) {
    const where = conditions(q);
    const [rows, [total]] = await Promise.all([
      this.joined(db, q.now)
        .where(where)
        .orderBy(...ORDER)
        .limit(limit)
        .offset(offset),
      db
        .select({ n: count() })
        .from(residents)
        .innerJoin(beds, eq(beds.residentId, residents.id))
        .innerJoin(rooms, eq(rooms.id, beds.roomId))
        .innerJoin(floor, eq(floor.id, rooms.floorId))
        .leftJoin(devices, eq(devices.id, beds.deviceId))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** Every row of the list's filters, in order (the live-state filters are applied in memory). */
  all(db: Executor, q: LiveListQuery) {
    return this.joined(db, q.now)
      .where(conditions(q))
      .orderBy(...ORDER);
  }

  /** These residents, whatever their state (focus residents may have left their bed). */
  byIds(db: Executor, ids: readonly number[], now: Date) {
    if (!ids.length) return Promise.resolve([]);
    return this.joined(db, now).where(inArray(residents.id, [...ids]));
  }

  /** Of these residents, those of the providers (all with null). */
  async ofProviders(db: Executor, ids: readonly number[], providerIds: readonly number[] | null): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await db
      .select({ id: residents.id })
      .from(residents)
      .where(and(inArray(residents.id, [...ids]), inProviders(providerIds)));
    return rows.map((r) => r.id);
  }

  /** Open alarms of each resident: how many, and the most urgent level (1 red before 2 orange). */
  async openAlarms(db: Executor, residentIds: readonly number[]): Promise<Map<number, { n: number; level: number }>> {
    const out = new Map<number, { n: number; level: number }>();
    if (!residentIds.length) return out;
    const rows = await db
      .select({ residentId: alarms.residentId, n: count(), level: min(alarms.level) })
      .from(alarms)
      .where(and(eq(alarms.releaseKind, 0), inArray(alarms.residentId, [...residentIds])))
      .groupBy(alarms.residentId);
    for (const r of rows) if (r.residentId !== null) out.set(r.residentId, { n: r.n, level: r.level ?? 2 });
    return out;
  }
}

const inProviders = (providerIds: readonly number[] | null): SQL | undefined =>
  providerIds === null ? undefined : inArray(residents.providerId, providerIds.length ? [...providerIds] : [-1]);

const conditions = (q: LiveListQuery): SQL | undefined => {
  const where: (SQL | undefined)[] = [inProviders(q.providerIds), eq(residents.state, 'checkedIn'), isNotNull(beds.id)];
  if (q.keyWord) {
    const like = containsPattern(q.keyWord);
    where.push(or(ilike(residents.name, like), ilike(beds.name, like), ilike(rooms.name, like)));
  }
  if (q.areaId !== undefined) where.push(or(eq(floor.id, q.areaId), eq(floor.parentId, q.areaId)));
  if (q.communityId !== undefined) where.push(eq(residents.communityId, q.communityId));
  if (q.openAlarm) {
    where.push(
      sql`exists (select 1 from ${alarms} where ${alarms.residentId} = ${residents.id} and ${alarms.releaseKind} = 0)`,
    );
  }
  if (q.sleepMonitor === true) where.push(inArray(devices.typeCode, [...SLEEP_MONITOR_CODES]));
  if (q.sleepMonitor === false) {
    where.push(or(isNull(devices.id), notInArray(devices.typeCode, [...SLEEP_MONITOR_CODES])));
  }
  return and(...where);
};
