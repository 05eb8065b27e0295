import {
  RELEASE_KIND,
  type AlarmLevel,
  type AlarmMeasure,
  type AlarmTimelineStep,
  type AlarmType,
  type ReleaseKind,
} from '@vigil/contract';
import { and, eq, getTableColumns, inArray, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { alarms, alarmTimeline, devices } from '../../db/schema.ts';

export type AlarmRow = typeof alarms.$inferSelect;

/** What a raise stores: the alarm's identity, placement and the condition. */
export interface AlarmRaise {
  providerId: number | null;
  deviceId: string;
  deviceType: number;
  deviceRowId: number | null;
  bedId: number | null;
  residentId: number | null;
  /** Where its device was placed (decision 0046). */
  roomId: number | null;
  areaId: number | null;
  caregiverId: number | null;
  alertType: AlarmType;
  level: AlarmLevel;
  startedAt: Date;
  at: Date;
  detail: Record<string, unknown>;
  /** The figure that raised it (kept as raised: a repeat never changes it). */
  measure: AlarmMeasure | null;
  eventId: number | null;
  /** A new occurrence counted on the open alarm; false for a condition that merely still holds. */
  counts: boolean;
}

/**
 * A raise as stored: a new alarm; a repeat counted on the open one; or, for a condition raised
 * again while its alarm is open (by another instance, say), the open alarm unchanged.
 */
export interface Raised {
  alarm: AlarmRow;
  outcome: 'raised' | 'repeated' | 'open';
}

export type TimelineStep = AlarmTimelineStep['step'];

export interface TimelineEntry {
  alarmId: number;
  at: Date;
  step: TimelineStep;
  accountId?: number | null;
  detail?: Record<string, unknown>;
}

/**
 * A release at a nurse watch of what it named: the alarm of that id (of that device, when it
 * names one too), or the device's alarms begun by `startedBy`; only of the watch's provider.
 */
export interface WatchReleasing {
  providerId: number;
  alarmId: number | null;
  deviceId: string | null;
  startedBy: Date;
  types: readonly AlarmType[];
  at: Date;
}

/** What a caregiver's handling stores. */
export interface Handling {
  at: Date;
  reason: string;
  result: string | null;
  remark: string | null;
  accountId: number;
  handlerName: string;
}

/**
 * The alarm table's SQL. The rules that make alarms exactly-once live in single statements
 * here, so they hold across transactions and instances: a raise is an insert that becomes a
 * repeat on the open alarm of the same device and type (the partial unique index), and a
 * release or a handling is an update of an alarm that is still open, which only one of any
 * number of concurrent attempts can win.
 */
export class AlarmRepository {
  /** Raises each alarm, or repeats the open one of its device and type; in input order. */
  async raise(db: Executor, raises: readonly AlarmRaise[]): Promise<Raised[]> {
    const out: Raised[] = [];
    // One statement per alarm: two raises of one key in a single multi-row insert would be refused.
    for (const r of raises) {
      const [row] = await db
        .insert(alarms)
        .values({
          providerId: r.providerId,
          deviceId: r.deviceId,
          deviceType: r.deviceType,
          deviceRowId: r.deviceRowId,
          bedId: r.bedId,
          residentId: r.residentId,
          roomId: r.roomId,
          areaId: r.areaId,
          caregiverId: r.caregiverId,
          alertType: r.alertType,
          level: r.level,
          startedAt: r.startedAt,
          raisedAt: r.at,
          lastAt: r.at,
          detail: r.detail,
          measure: r.measure,
          eventId: r.eventId,
        })
        .onConflictDoUpdate({
          target: [alarms.deviceId, alarms.alertType],
          targetWhere: sql`${alarms.releaseKind} = 0`,
          // An update even when nothing changes: RETURNING then answers the open alarm.
          set: r.counts
            ? {
                count: sql`${alarms.count} + 1`,
                lastAt: sql`greatest(${alarms.lastAt}, excluded.last_at)`,
                detail: sql`excluded.detail`,
              }
            : { count: sql`${alarms.count}` },
        })
        // xmax is 0 on a row this statement inserted, and set on one it updated.
        .returning({ ...getTableColumns(alarms), inserted: sql<boolean>`(xmax = 0)` });
      if (!row) continue;
      const { inserted, ...alarm } = row;
      out.push({ alarm, outcome: inserted ? 'raised' : r.counts ? 'repeated' : 'open' });
    }
    return out;
  }

  /**
   * Releases the open alarms of a device among `types`; answers those it released. When the
   * condition cleared by itself (`latch` given), an alarm of a latching level stays pending
   * until a person handles it (decision 0035).
   */
  async release(
    db: Executor,
    deviceId: string,
    types: readonly AlarmType[],
    kind: Exclude<ReleaseKind, 0 | 1>,
    at: Date,
    latch?: Readonly<Record<AlarmLevel, boolean>>,
  ): Promise<AlarmRow[]> {
    if (!types.length) return [];
    const latching = latch
      ? sql`(${alarms.level} = 1 and ${latch[1]}) or (${alarms.level} = 2 and ${latch[2]})`
      : sql`false`;
    return db
      .update(alarms)
      .set({ releaseKind: kind, releasedAt: at, clearedAt: latch ? at : null, awaitingAck: latching })
      .where(and(eq(alarms.deviceId, deviceId), inArray(alarms.alertType, [...types]), eq(alarms.releaseKind, 0)))
      .returning();
  }

  /**
   * Releases at a nurse watch what it named (kind 4), in one conditional update: never another
   * provider's alarm, and of two watches (or a watch and a terminal) releasing one alarm at once
   * exactly one changes it. Answers those it released.
   */
  async releaseAtWatch(db: Executor, r: WatchReleasing): Promise<AlarmRow[]> {
    const device = r.deviceId === null ? undefined : eq(alarms.deviceId, r.deviceId);
    // An alarm named by its id was shown to her; a device's alarm, only if it began before she pressed.
    const named =
      r.alarmId !== null
        ? and(eq(alarms.id, r.alarmId), device)
        : device && and(device, lte(alarms.startedAt, r.startedBy));
    if (!named || !r.types.length) return [];
    return db
      .update(alarms)
      .set({ releaseKind: RELEASE_KIND.watch, releasedAt: r.at })
      .where(
        and(
          named,
          eq(alarms.providerId, r.providerId),
          inArray(alarms.alertType, [...r.types]),
          eq(alarms.releaseKind, RELEASE_KIND.none),
        ),
      )
      .returning();
  }

  /** The alarms a watch release named whatever their state or provider (why it released nothing): the alarm, or the device's open ones. */
  async namedAtWatch(db: Executor, target: { alarmId: number | null; deviceId: string | null }): Promise<AlarmRow[]> {
    if (target.alarmId !== null) return db.select().from(alarms).where(eq(alarms.id, target.alarmId));
    if (target.deviceId === null) return [];
    return db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, target.deviceId), eq(alarms.releaseKind, RELEASE_KIND.none)));
  }

  /**
   * Handles a pending alarm; undefined when it is no longer pending: another terminal won. An
   * open one is released by the handling (kind 1); one that cleared by itself and latched keeps
   * its release (kind 2, when it cleared) and is acknowledged.
   */
  async handle(db: Executor, id: number, handling: Handling): Promise<AlarmRow | undefined> {
    const [row] = await db
      .update(alarms)
      .set({
        releaseKind: sql`case when ${alarms.releaseKind} = 0 then 1 else ${alarms.releaseKind} end`,
        releasedAt: sql`coalesce(${alarms.releasedAt}, ${handling.at.toISOString()}::timestamptz)`,
        awaitingAck: false,
        handledAt: handling.at,
        relieveReason: handling.reason,
        dealResult: handling.result,
        remark: handling.remark,
        handledBy: handling.accountId,
        handlerName: handling.handlerName,
      })
      .where(and(eq(alarms.id, id), or(eq(alarms.releaseKind, 0), eq(alarms.awaitingAck, true))))
      .returning();
    return row;
  }

  /**
   * Releases the open alarms of these devices that were raised for a provider the device no longer
   * serves (moved to another, deleted, replaced): kind 2 and awaiting acknowledgement, so they stay
   * pending for that provider's caregivers but no longer hold the device's open slot, and what the
   * device raises next is a new alarm of where it serves now, never a repeat counted on the old one.
   * Answers those released.
   */
  async releaseLeftBehind(db: Executor, deviceIds: readonly string[], at: Date): Promise<AlarmRow[]> {
    if (!deviceIds.length) return [];
    return db
      .update(alarms)
      .set({ releaseKind: RELEASE_KIND.automatic, releasedAt: at, awaitingAck: true })
      .where(
        and(
          inArray(alarms.deviceId, [...deviceIds]),
          eq(alarms.releaseKind, RELEASE_KIND.none),
          sql`${alarms.providerId} is distinct from (select d.provider_id from ${devices} d where d.device_id = ${alarms.deviceId})`,
        ),
      )
      .returning();
  }

  async byId(db: Executor, id: number): Promise<AlarmRow | undefined> {
    const [row] = await db.select().from(alarms).where(eq(alarms.id, id));
    return row;
  }

  /** Every open alarm: what the engine restores after a restart. */
  async open(db: Executor): Promise<AlarmRow[]> {
    return db.select().from(alarms).where(eq(alarms.releaseKind, 0));
  }

  async addTimeline(db: Executor, entries: readonly TimelineEntry[]): Promise<void> {
    if (!entries.length) return;
    await db.insert(alarmTimeline).values(
      entries.map((e) => ({
        alarmId: e.alarmId,
        at: e.at,
        step: e.step,
        accountId: e.accountId ?? null,
        detail: e.detail ?? {},
      })),
    );
  }

  /**
   * What a console reported of an alarm (/wsLog), once per console: a console is its session, so
   * a page reloaded or a socket reconnected (which report again) adds nothing. Answers whether it
   * was kept.
   */
  async addConsoleLog(db: Executor, entry: TimelineEntry & { console: string; session: number }): Promise<boolean> {
    const detail = { ...entry.detail, console: entry.console, session: entry.session };
    const result = await db.execute(sql`
      insert into ${alarmTimeline} (alarm_id, at, step, account_id, detail)
      select ${entry.alarmId}::bigint, ${entry.at.toISOString()}::timestamptz, ${entry.step}::text,
             ${entry.accountId ?? null}::integer, ${JSON.stringify(detail)}::jsonb
      where not exists (
        select 1 from ${alarmTimeline} t
        where t.alarm_id = ${entry.alarmId}::bigint and t.step = ${entry.step}::text
          and t.detail ->> 'console' = ${entry.console}::text
          and t.detail ->> 'session' = ${String(entry.session)}::text
      )
      returning id`);
    return (result as unknown as { rows: unknown[] }).rows.length > 0;
  }

  async timeline(db: Executor, alarmId: number) {
    return db
      .select()
      .from(alarmTimeline)
      .where(eq(alarmTimeline.alarmId, alarmId))
      .orderBy(alarmTimeline.at, alarmTimeline.id);
  }
}
