import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { beds, residents, rooms, sleepReports } from '../../db/schema.ts';
import type { NightWindow } from './night-window.ts';

export type SleepReportRow = typeof sleepReports.$inferSelect;

export interface ReportClaim {
  providerId: number;
  residentId: number;
  bedId: number | null;
  window: NightWindow;
  now: Date;
  /** A `computing` claim older than this was left by a stopped instance and may be taken over. */
  staleBefore: Date;
  /** Recompute even a ready report (on demand, or after the method changed). */
  force?: boolean;
}

/** Sleep reports: the claim that gives each report one producer, and its result. */
export class SleepReportRepository {
  /**
   * Makes the caller the producer of one resident's report for one night, in one statement:
   * the row is inserted, or taken over when it failed, was left computing by a stopped
   * instance, or is forced. Answers its id, or null when another instance holds it or it is
   * ready. Several instances calling at once: exactly one gets the id.
   */
  async claim(db: Executor, claim: ReportClaim): Promise<number | null> {
    const r = sleepReports;
    const takeOver = claim.force
      ? sql`${r.state} <> 'computing' or ${r.claimedAt} < ${claim.staleBefore.toISOString()}::timestamptz`
      : sql`${r.state} = 'failed' or (${r.state} = 'computing' and ${r.claimedAt} < ${claim.staleBefore.toISOString()}::timestamptz)`;
    const rows = await db
      .insert(r)
      .values({
        providerId: claim.providerId,
        residentId: claim.residentId,
        bedId: claim.bedId,
        night: claim.window.night,
        windowStart: claim.window.start,
        windowEnd: claim.window.end,
        state: 'computing',
        claimedAt: claim.now,
      })
      .onConflictDoUpdate({
        target: [r.residentId, r.night],
        set: {
          state: 'computing',
          claimedAt: claim.now,
          windowStart: claim.window.start,
          windowEnd: claim.window.end,
          bedId: claim.bedId,
          error: null,
        },
        setWhere: takeOver,
      })
      .returning({ id: r.id });
    return rows[0]?.id ?? null;
  }

  /** Stores the analysis of a claimed report; a claim taken over meanwhile is left alone. */
  async complete(
    db: Executor,
    id: number,
    claimedAt: Date,
    result: { report: Record<string, unknown>; analysisVersion: number; now: Date },
  ): Promise<boolean> {
    const r = sleepReports;
    const rows = await db
      .update(r)
      .set({ state: 'ready', report: result.report, analysisVersion: result.analysisVersion, computedAt: result.now })
      .where(and(eq(r.id, id), eq(r.state, 'computing'), eq(r.claimedAt, claimedAt)))
      .returning({ id: r.id });
    return rows.length > 0;
  }

  /** Records why a claimed report could not be made; the next round claims it again. */
  async fail(db: Executor, id: number, claimedAt: Date, error: string): Promise<void> {
    const r = sleepReports;
    await db
      .update(r)
      .set({ state: 'failed', error: error.slice(0, 500) })
      .where(and(eq(r.id, id), eq(r.state, 'computing'), eq(r.claimedAt, claimedAt)));
  }

  async find(db: Executor, residentId: number, night: string): Promise<SleepReportRow | undefined> {
    const [row] = await db
      .select()
      .from(sleepReports)
      .where(and(eq(sleepReports.residentId, residentId), eq(sleepReports.night, night)));
    return row;
  }

  /** One resident's reports of the nights in `[from, to]` the providers see (all with null), in date order. */
  async nightsOf(db: Executor, residentId: number, providerIds: readonly number[] | null, from: string, to: string) {
    return db
      .select()
      .from(sleepReports)
      .where(
        and(
          eq(sleepReports.residentId, residentId),
          inProviders(providerIds),
          gte(sleepReports.night, from),
          lte(sleepReports.night, to),
        ),
      )
      .orderBy(asc(sleepReports.night));
  }

  /** The first and last night of a resident's ready reports. */
  async span(db: Executor, residentId: number, providerIds: readonly number[] | null) {
    const [row] = await db
      .select({
        first: sql<string | null>`min(${sleepReports.night})`,
        last: sql<string | null>`max(${sleepReports.night})`,
      })
      .from(sleepReports)
      .where(and(eq(sleepReports.residentId, residentId), inProviders(providerIds), eq(sleepReports.state, 'ready')));
    return { first: row?.first ?? null, last: row?.last ?? null };
  }

  /** Months (YYYY-MM) with a ready report of the resident, newest first. */
  async months(db: Executor, residentId: number, providerIds: readonly number[] | null): Promise<string[]> {
    const month = sql<string>`to_char(${sleepReports.night}, 'YYYY-MM')`;
    const rows = await db
      .selectDistinct({ month })
      .from(sleepReports)
      .where(and(eq(sleepReports.residentId, residentId), inProviders(providerIds), eq(sleepReports.state, 'ready')))
      .orderBy(desc(month));
    return rows.map((r) => r.month);
  }

  /** Each resident's latest report (any state) and how many ready ones they have. */
  async latestOf(db: Executor, residentIds: readonly number[], providerIds: readonly number[] | null) {
    if (!residentIds.length) return { latest: new Map<number, SleepReportRow>(), counts: new Map<number, number>() };
    const where = and(inArray(sleepReports.residentId, [...residentIds]), inProviders(providerIds));
    const [latest, counts] = await Promise.all([
      db
        .selectDistinctOn([sleepReports.residentId])
        .from(sleepReports)
        .where(where)
        .orderBy(asc(sleepReports.residentId), desc(sleepReports.night)),
      db
        .select({ residentId: sleepReports.residentId, n: count() })
        .from(sleepReports)
        .where(and(where, eq(sleepReports.state, 'ready')))
        .groupBy(sleepReports.residentId),
    ]);
    return {
      latest: new Map(latest.map((r) => [r.residentId, r])),
      counts: new Map(counts.map((r) => [r.residentId, r.n])),
    };
  }

  /** A page of reports, newest night first, then by bed and resident, with the resident's names. */
  async page(db: Executor, q: ReportPageQuery, offset: number, limit: number) {
    const where = and(
      inProviders(q.providerIds),
      q.residentId === undefined ? undefined : eq(sleepReports.residentId, q.residentId),
      q.from === undefined ? undefined : gte(sleepReports.night, q.from),
      q.to === undefined ? undefined : lte(sleepReports.night, q.to),
      q.riskGrade === undefined ? undefined : sql`${sleepReports.report}->'report'->'risk'->>'grade' = ${q.riskGrade}`,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({
          report: sleepReports,
          userName: residents.name,
          bunk: beds.name,
          room: rooms.name,
        })
        .from(sleepReports)
        .innerJoin(residents, eq(residents.id, sleepReports.residentId))
        .leftJoin(beds, eq(beds.id, sleepReports.bedId))
        .leftJoin(rooms, eq(rooms.id, beds.roomId))
        .where(where)
        .orderBy(desc(sleepReports.night), asc(rooms.name), asc(beds.name), asc(residents.name), asc(residents.id))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(sleepReports).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}

export interface ReportPageQuery {
  /** null: every provider. */
  providerIds: readonly number[] | null;
  residentId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  riskGrade?: string | undefined;
}

const inProviders = (providerIds: readonly number[] | null): SQL | undefined =>
  providerIds === null ? undefined : inArray(sleepReports.providerId, providerIds.length ? [...providerIds] : [-1]);
