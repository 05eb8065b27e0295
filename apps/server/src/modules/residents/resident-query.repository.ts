import { and, asc, count, desc, eq, gt, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ResidentState } from '@vigil/contract';
import type { Executor } from '../../db/database.ts';
import {
  areas,
  beds,
  caregivers,
  communities,
  emergencyContacts,
  providers,
  residentAbsences,
  residentCaregivers,
  residents,
  rooms,
} from '../../db/schema.ts';
import { containsPattern } from '../../db/sql-filters.ts';

export interface ResidentListQuery {
  offset: number;
  limit: number;
  /** null: every provider. */
  providerIds: readonly number[] | null;
  keyWord?: string | undefined;
  state?: ResidentState | undefined;
  gender?: 0 | 1 | undefined;
  priority?: boolean | undefined;
  areaId?: number | undefined;
  roomId?: number | undefined;
  communityId?: number | undefined;
  bornOnOrBefore?: string | undefined;
  bornAfter?: string | undefined;
  now: Date;
}

const floor = alias(areas, 'floor');
const topArea = alias(areas, 'top_area');

/** An absence of the resident is under way at `now`. */
const awayAt = (now: Date) =>
  sql<boolean>`(${residents.state} = 'checkedIn' and exists (select 1 from ${residentAbsences} where ${residentAbsences.residentId} = ${residents.id} and ${residentAbsences.startsAt} >= coalesce(${residents.admittedAt}, '-infinity'::timestamptz) and ${residentAbsences.startsAt} <= ${now.toISOString()}::timestamptz and (${residentAbsences.endsAt} is null or ${residentAbsences.endsAt} > ${now.toISOString()}::timestamptz)))`;

/** The row every list and detail shows: the resident with provider, bed, address path and community. */
const rowFields = (now: Date) => ({
  resident: residents,
  providerName: providers.name,
  bedId: beds.id,
  bedName: beds.name,
  roomId: rooms.id,
  roomName: rooms.name,
  floorId: floor.id,
  floorName: floor.name,
  floorParentId: floor.parentId,
  areaId: topArea.id,
  areaName: topArea.name,
  communityName: communities.name,
  contactsCount: sql<number>`(select count(*)::int from ${emergencyContacts} where ${emergencyContacts.residentId} = ${residents.id})`,
  away: awayAt(now),
});

export type ResidentJoinedRow = Awaited<ReturnType<ResidentQueryRepository['page']>>['rows'][number];

/** Read-only joins across residents, beds, rooms, areas, communities and caregivers for lists and detail. */
export class ResidentQueryRepository {
  private joined(db: Executor, now: Date) {
    return db
      .select(rowFields(now))
      .from(residents)
      .innerJoin(providers, eq(providers.id, residents.providerId))
      .leftJoin(beds, eq(beds.residentId, residents.id))
      .leftJoin(rooms, eq(rooms.id, sql`coalesce(${beds.roomId}, ${residents.roomId})`))
      .leftJoin(floor, eq(floor.id, rooms.floorId))
      .leftJoin(topArea, eq(topArea.id, floor.parentId))
      .leftJoin(communities, eq(communities.id, residents.communityId));
  }

  private conditions(q: ResidentListQuery): SQL | undefined {
    const where: (SQL | undefined)[] = [];
    if (q.providerIds) where.push(inArray(residents.providerId, q.providerIds.length ? [...q.providerIds] : [-1]));
    if (q.keyWord) {
      const byPhone = q.keyWord.replace(/[\s\-()]/g, '');
      where.push(
        or(
          ilike(residents.name, containsPattern(q.keyWord)),
          /^\+?\d+$/.test(byPhone)
            ? sql`exists (select 1 from ${emergencyContacts} where ${emergencyContacts.residentId} = ${residents.id} and ${emergencyContacts.phone} like ${containsPattern(byPhone.replace(/^\+/, ''))})`
            : undefined,
        ),
      );
    }
    if (q.state) where.push(eq(residents.state, q.state));
    if (q.gender !== undefined) where.push(eq(residents.gender, q.gender));
    if (q.priority !== undefined) where.push(eq(residents.priority, q.priority));
    if (q.communityId !== undefined) where.push(eq(residents.communityId, q.communityId));
    if (q.areaId !== undefined) where.push(or(eq(floor.id, q.areaId), eq(floor.parentId, q.areaId)));
    if (q.roomId !== undefined) where.push(eq(rooms.id, q.roomId));
    if (q.bornOnOrBefore) where.push(lte(residents.birthDate, q.bornOnOrBefore));
    if (q.bornAfter) where.push(gt(residents.birthDate, q.bornAfter));
    return and(...where);
  }

  async page(db: Executor, q: ResidentListQuery) {
    const where = this.conditions(q);
    const rows = await this.joined(db, q.now).where(where).orderBy(desc(residents.id)).limit(q.limit).offset(q.offset);
    const [total] = await db
      .select({ n: count() })
      .from(residents)
      .leftJoin(beds, eq(beds.residentId, residents.id))
      .leftJoin(rooms, eq(rooms.id, sql`coalesce(${beds.roomId}, ${residents.roomId})`))
      .leftJoin(floor, eq(floor.id, rooms.floorId))
      .where(where);
    return { rows, total: total?.n ?? 0 };
  }

  async one(db: Executor, id: number, now: Date) {
    const [row] = await this.joined(db, now).where(eq(residents.id, id));
    return row;
  }

  /** Linked carers of each resident, by name. */
  async carersOf(db: Executor, residentIds: readonly number[]): Promise<Map<number, { id: number; name: string }[]>> {
    const out = new Map<number, { id: number; name: string }[]>();
    if (!residentIds.length) return out;
    const rows = await db
      .select({ residentId: residentCaregivers.residentId, id: caregivers.id, name: caregivers.name })
      .from(residentCaregivers)
      .innerJoin(caregivers, eq(caregivers.id, residentCaregivers.caregiverId))
      .where(inArray(residentCaregivers.residentId, [...residentIds]))
      .orderBy(asc(caregivers.name), asc(caregivers.id));
    for (const r of rows) {
      const list = out.get(r.residentId) ?? [];
      list.push({ id: r.id, name: r.name });
      out.set(r.residentId, list);
    }
    return out;
  }

  async summary(db: Executor, providerIds: readonly number[] | null, now: Date) {
    const n = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
    const [row] = await db
      .select({
        total: sql<number>`count(*)::int`,
        registered: n(sql`${residents.state} = 'registered'`),
        checkedIn: n(sql`${residents.state} = 'checkedIn'`),
        checkedOut: n(sql`${residents.state} = 'checkedOut'`),
        loggedOff: n(sql`${residents.state} = 'loggedOff'`),
        priority: n(sql`${residents.priority}`),
        male: n(sql`${residents.gender} = 0`),
        female: n(sql`${residents.gender} = 1`),
        away: n(awayAt(now)),
      })
      .from(residents)
      .where(providerIds ? inArray(residents.providerId, providerIds.length ? [...providerIds] : [-1]) : undefined);
    return row;
  }
}
