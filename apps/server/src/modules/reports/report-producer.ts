import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { BackgroundPacer } from '../../core/background-pacer.ts';
import type { AnalysisPool } from './analysis-pool.ts';
import type { NightWindow } from './night-window.ts';
import { NightRepository } from './night.repository.ts';
import type { PackedNight } from './packed-night.ts';
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
 * the stored minutes as the database packs them, has a worker thread unpack and analyse them,
 * and stores the result or the failure.
 */
export class ReportProducer {
  private readonly nights = new NightRepository();
  private readonly reports = new SleepReportRepository();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly pool: Pick<AnalysisPool, 'analyseStored'>,
    /** Every query of every report goes through it (on PGlite they share the server's thread). */
    private readonly pacer = new BackgroundPacer({ restRatio: 0 }),
  ) {}

  async produce(target: ReportTarget, window: NightWindow, force = false): Promise<ProduceOutcome> {
    const claimedAt = this.clock.now();
    const id = await this.pacer.step(() =>
      this.reports.claim(this.db, {
        ...target,
        window,
        now: claimedAt,
        staleBefore: new Date(claimedAt.getTime() - STALE_CLAIM_MS),
        force,
      }),
    );
    if (id === null) return 'held';
    try {
      const night: PackedNight = await Promise.all(
        NightRepository.slicesOf(window.start, window.end).map((slice) =>
          this.pacer.step(() => this.nights.packedSlice(this.db, target.residentId, slice.from, slice.to)),
        ),
      );
      const { report, curves } = await this.pool.analyseStored(
        window.start.getTime() / 1000,
        window.end.getTime() / 1000,
        night,
      );
      const stored: StoredReport = { report, curves };
      const kept = await this.pacer.step(() =>
        this.reports.complete(this.db, id, claimedAt, {
          report: stored as unknown as Record<string, unknown>,
          analysisVersion: ANALYSIS_VERSION,
          now: this.clock.now(),
        }),
      );
      return kept ? 'made' : 'held';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.pacer.step(() => this.reports.fail(this.db, id, claimedAt, message));
      return 'failed';
    }
  }
}
