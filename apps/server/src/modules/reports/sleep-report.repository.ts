import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { sleepReports } from '../../db/schema.ts';
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
}
