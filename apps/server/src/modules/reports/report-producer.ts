import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { AnalysisPool } from './analysis-pool.ts';
import { assembleNight } from './night-assembly.ts';
import type { NightWindow } from './night-window.ts';
import { NightRepository } from './night.repository.ts';
import { SleepReportRepository } from './sleep-report.repository.ts';
import { ANALYSIS_VERSION, type StoredReport } from './stored-report.ts';

export interface ReportTarget {
  residentId: number;
  providerId: number;
  bedId: number | null;
}

/** made: this instance stored it; held: another instance is making it, or it is ready; failed: stored as failed. */
export type ProduceOutcome = 'made' | 'held' | 'failed';

/** A claim older than this was left by a stopped instance (a report takes well under a second). */
export const STALE_CLAIM_MS = 10 * 60_000;

/**
 * Makes one resident's report for one night: claims it (one producer across instances), reads
 * the stored minutes, has a worker thread analyse them, and stores the result or the failure.
 */
export class ReportProducer {
  private readonly nights = new NightRepository();
  private readonly reports = new SleepReportRepository();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly pool: Pick<AnalysisPool, 'analyse'>,
  ) {}

  async produce(target: ReportTarget, window: NightWindow, force = false): Promise<ProduceOutcome> {
    const claimedAt = this.clock.now();
    const id = await this.reports.claim(this.db, {
      ...target,
      window,
      now: claimedAt,
      staleBefore: new Date(claimedAt.getTime() - STALE_CLAIM_MS),
      force,
    });
    if (id === null) return 'held';
    try {
      const minutes = await this.nights.minutesOf(this.db, target.residentId, window.start, window.end);
      const night = assembleNight(window.start.getTime() / 1000, window.end.getTime() / 1000, minutes);
      const { report, curves } = await this.pool.analyse(night);
      const stored: StoredReport = { report, curves };
      const kept = await this.reports.complete(this.db, id, claimedAt, {
        report: stored as unknown as Record<string, unknown>,
        analysisVersion: ANALYSIS_VERSION,
        now: this.clock.now(),
      });
      return kept ? 'made' : 'held';
    } catch (error) {
      await this.reports.fail(this.db, id, claimedAt, error instanceof Error ? error.message : String(error));
      return 'failed';
    }
  }
}
