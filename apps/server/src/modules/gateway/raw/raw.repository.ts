import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { deviceRawMinutes, devices, type RawMinuteSamples } from '../../../db/schema.ts';
import { containsPattern } from '../../devices/device.policy.ts';

/** Per device-minute tables kept for RAW_RETENTION_DAYS: raw samples and a sleep monitor's seconds. */
export type RetainedTable = 'device_raw' | 'device_second';

/** Which raw rows a caller sees, by the provider recorded on each row: null means every row. */
export type RawScope = readonly number[] | null;

export interface RawListQuery {
  offset: number;
  limit: number;
  /** Device IDs containing this. */
  deviceId?: string | undefined;
  /** One UTC day: [start, start + 24 h). */
  day?: { start: Date; end: Date } | undefined;
  /** Rows of this provider only (already checked visible). */
  providerId?: number | undefined;
  scope: RawScope;
}

/** One device and UTC day of the list. */
export interface RawDayRow {
  deviceId: string;
  day: string;
  minutes: number;
  samples: number;
  firstTime: string;
  lastTime: string;
  providerId: number | null;
  providerName: string | null;
  deviceType: number | null;
  deviceName: string | null;
  deviceMinutes: number;
  deviceDays: number;
}

export interface RawMinute {
  minute: Date;
  samples: RawMinuteSamples;
}

const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The scope condition on a raw row alias (`r.provider_id`), written out for the raw SQL below. */
const scopeSql = (alias: string, scope: RawScope): SQL => {
  const column = sql.raw(`${alias}.provider_id`);
  if (scope === null) return sql`true`;
  if (!scope.length) return sql`false`;
  return sql`${column} in (${sql.join(
    scope.map((id) => sql`${id}`),
    sql`, `,
  )})`;
};

/** The same condition for the query builder. */
const scopeOf = (scope: RawScope): SQL | undefined =>
  scope === null ? undefined : scope.length ? inArray(deviceRawMinutes.providerId, [...scope]) : sql`false`;

const dayRange = (day: { start: Date; end: Date }) =>
  and(gte(deviceRawMinutes.minute, day.start), lt(deviceRawMinutes.minute, day.end));

/** Raw device samples (`device_raw`, one row per device and minute): the only SQL on that table. */
export class RawDataRepository {
  /**
   * A page of (device, UTC day) groups of the rows the caller sees, newest day first, and the
   * number of groups. Sample counts read the stored samples, so they are computed for the page's
   * groups only, after paging.
   */
  async page(db: Executor, q: RawListQuery): Promise<{ rows: RawDayRow[]; total: number }> {
    const rowScope = (alias: string) =>
      q.providerId === undefined
        ? scopeSql(alias, q.scope)
        : sql`${scopeSql(alias, q.scope)} and ${sql.raw(`${alias}.provider_id`)} = ${q.providerId}`;
    const filters: SQL[] = [rowScope('r')];
    if (q.deviceId) filters.push(sql`r.device_id ilike ${containsPattern(q.deviceId)}`);
    if (q.day) {
      filters.push(sql`r.minute >= ${q.day.start.toISOString()}::timestamptz`);
      filters.push(sql`r.minute < ${q.day.end.toISOString()}::timestamptz`);
    }
    const where = sql.join(filters, sql` and `);
    const result = await db.execute(sql`
      with g as (
        select r.device_id, (r.minute at time zone 'UTC')::date as day,
               count(*)::int as minutes, min(r.minute) as first_minute, max(r.minute) as last_minute,
               (array_agg(r.provider_id order by r.minute desc))[1] as provider_id,
               (count(*) over ())::int as total
        from device_raw r
        where ${where}
        group by r.device_id, day
        order by day desc, r.device_id
        limit ${q.limit} offset ${q.offset}
      )
      select g.device_id as "deviceId", to_char(g.day, 'YYYY-MM-DD') as "day", g.minutes, g.total,
             ${iso(sql`g.first_minute`)} as "firstTime", ${iso(sql`g.last_minute`)} as "lastTime",
             g.provider_id as "providerId", p.name as "providerName",
             coalesce(d.type_code, s.type_code) as "deviceType", d.name as "deviceName",
             (select coalesce(sum(jsonb_array_length(r.samples -> 't')), 0)::int from device_raw r
               where r.device_id = g.device_id
                 and r.minute >= (g.day::timestamp at time zone 'UTC')
                 and r.minute < ((g.day + 1)::timestamp at time zone 'UTC')
                 and ${rowScope('r')}) as samples,
             (select count(*)::int from device_raw r
               where r.device_id = g.device_id and ${scopeSql('r', q.scope)}) as "deviceMinutes",
             (select count(distinct (r.minute at time zone 'UTC')::date)::int from device_raw r
               where r.device_id = g.device_id and ${scopeSql('r', q.scope)}) as "deviceDays"
      from g
      left join device d on d.device_id = g.device_id
      left join device_stock s on s.device_id = g.device_id
      left join provider p on p.id = g.provider_id
      order by g.day desc, g.device_id
    `);
    const rows = (result as unknown as { rows: (RawDayRow & { total: number })[] }).rows.map((r) => ({
      deviceId: r.deviceId,
      day: r.day,
      minutes: Number(r.minutes),
      samples: Number(r.samples),
      firstTime: r.firstTime,
      lastTime: r.lastTime,
      providerId: r.providerId === null ? null : Number(r.providerId),
      providerName: r.providerName,
      deviceType: r.deviceType === null ? null : Number(r.deviceType),
      deviceName: r.deviceName,
      deviceMinutes: Number(r.deviceMinutes),
      deviceDays: Number(r.deviceDays),
      total: Number(r.total),
    }));
    if (rows.length) return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0]?.total ?? 0 };
    if (q.offset === 0) return { rows: [], total: 0 };
    // A page past the end: count the groups on their own.
    const counted = await db.execute(sql`
      select count(*)::int as n from (
        select 1 from device_raw r where ${where} group by r.device_id, (r.minute at time zone 'UTC')::date
      ) x`);
    return { rows: [], total: Number((counted as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) };
  }

  /** The minutes of one device and day the caller sees, in time order. */
  async minutes(db: Executor, deviceId: string, day: { start: Date; end: Date }, scope: RawScope) {
    return db
      .select({ minute: deviceRawMinutes.minute, samples: deviceRawMinutes.samples })
      .from(deviceRawMinutes)
      .where(and(eq(deviceRawMinutes.deviceId, deviceId), dayRange(day), scopeOf(scope)))
      .orderBy(asc(deviceRawMinutes.minute)) as Promise<RawMinute[]>;
  }

  /** Whether the caller sees any raw row of the device. */
  async anyVisible(db: Executor, deviceId: string, scope: RawScope): Promise<boolean> {
    const [row] = await db
      .select({ one: sql<number>`1` })
      .from(deviceRawMinutes)
      .where(and(eq(deviceRawMinutes.deviceId, deviceId), scopeOf(scope)))
      .limit(1);
    return row !== undefined;
  }

  /** The provider a device (by device ID) is added to, when it is. */
  async deviceProvider(db: Executor, deviceId: string): Promise<number | undefined> {
    const [row] = await db
      .select({ providerId: devices.providerId })
      .from(devices)
      .where(eq(devices.deviceId, deviceId));
    return row?.providerId;
  }

  /**
   * Deletes the rows the caller sees of a device, of one day or of every day; answers how many
   * rows of each provider went (a device may have served several).
   */
  async remove(
    db: Executor,
    deviceId: string,
    day: { start: Date; end: Date } | undefined,
    scope: RawScope,
  ): Promise<Map<number | null, number>> {
    const gone = await db
      .delete(deviceRawMinutes)
      .where(and(eq(deviceRawMinutes.deviceId, deviceId), day ? dayRange(day) : undefined, scopeOf(scope)))
      .returning({ providerId: deviceRawMinutes.providerId });
    const byProvider = new Map<number | null, number>();
    for (const { providerId } of gone) byProvider.set(providerId, (byProvider.get(providerId) ?? 0) + 1);
    return byProvider;
  }

  /**
   * Deletes at most `limit` rows of `table` recorded before `before`, in one statement of its own (no
   * surrounding transaction); rows another instance is deleting right now are skipped.
   */
  async removeOlderThan(
    db: Executor,
    before: Date,
    limit: number,
    table: RetainedTable = 'device_raw',
  ): Promise<number> {
    const t = sql.identifier(table);
    const result = await db.execute(sql`
      with gone as (
        delete from ${t} where (device_id, minute) in (
          select device_id, minute from ${t}
          where minute < ${before.toISOString()}::timestamptz
          limit ${limit}
          for update skip locked
        )
        returning 1
      )
      select count(*)::int as n from gone`);
    return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  }
}
