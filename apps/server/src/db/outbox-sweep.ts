import { and, asc, inArray, isNotNull, lt } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { BackgroundPacer } from '../core/background-pacer.ts';
import type { Part } from '../core/lifecycle.ts';
import type { Log } from '../core/log.ts';
import type { Db } from './database.ts';
import type { OutboxMetrics } from './outbox-metrics.ts';
import { eventOutbox } from './schema.ts';
import type { Transactions } from './transactions.ts';

export interface OutboxSweepOptions {
  /** How often unmarked events past their grace period are looked for (OUTBOX_SWEEP_SECONDS). */
  everyMs: number;
  /** Published events older than this are deleted (OUTBOX_RETENTION_HOURS). */
  retentionMs: number;
  /** How often the purge runs (once at start, then this often). */
  purgeEveryMs?: number;
  /** Rows per DELETE statement. */
  purgeBatch?: number;
}

/**
 * The outbox's upkeep on every instance (decision 0037): every `everyMs` it marks what this
 * instance published but could not mark and publishes what another instance committed and never
 * marked (it died, or its database connection did) once the grace period is over; every hour it
 * deletes published events older than the retention period, a bounded statement at a time,
 * paced (decision 0028). Unpublished events are never deleted. Failures are logged and counted
 * (`vigil_outbox_bookkeeping_failures_total`) and tried again at the next pass.
 */
export class OutboxSweep {
  private sweepTimer: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private relaying: Promise<number> | undefined;
  private purging: Promise<number> | undefined;
  private stopping = false;
  private readonly purgeEveryMs: number;
  private readonly purgeBatch: number;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      transactions: Transactions;
      pacer: BackgroundPacer;
      metrics: OutboxMetrics;
      log: Log;
    },
    private readonly options: OutboxSweepOptions,
  ) {
    this.purgeEveryMs = options.purgeEveryMs ?? 3_600_000;
    this.purgeBatch = options.purgeBatch ?? 1_000;
  }

  /** One pass of the sweep; a pass already going is joined. Never rejects. */
  relay(): Promise<number> {
    this.relaying ??= this.deps.transactions
      .sweep()
      .catch((error: unknown) => {
        this.deps.metrics.failed('relay');
        this.deps.log.warn({ err: String(error) }, 'outbox sweep failed; trying again at the next pass');
        return 0;
      })
      .finally(() => (this.relaying = undefined));
    return this.relaying;
  }

  /** Deletes published events past the retention period; a run already going is joined. Never rejects. */
  purge(): Promise<number> {
    this.purging ??= this.purgeOld()
      .catch((error: unknown) => {
        this.deps.metrics.failed('purge');
        this.deps.log.warn({ err: String(error) }, 'outbox purge failed; trying again at the next run');
        return 0;
      })
      .finally(() => (this.purging = undefined));
    return this.purging;
  }

  start(): void {
    if (this.sweepTimer) return;
    this.stopping = false;
    this.sweepTimer = setInterval(() => void this.relay(), this.options.everyMs);
    this.sweepTimer.unref();
    void this.purge();
    this.purgeTimer = setInterval(() => void this.purge(), this.purgeEveryMs);
    this.purgeTimer.unref();
  }

  /** Stops the timers; a purge going stops after its current statement. */
  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    clearInterval(this.purgeTimer);
    this.sweepTimer = this.purgeTimer = undefined;
    this.stopping = true;
    await Promise.all([this.relaying, this.purging]);
  }

  private async purgeOld(): Promise<number> {
    const { db, clock, pacer, metrics } = this.deps;
    const before = new Date(clock.now().getTime() - this.options.retentionMs);
    let deleted = 0;
    while (!this.stopping) {
      const old = db
        .select({ id: eventOutbox.id })
        .from(eventOutbox)
        .where(and(isNotNull(eventOutbox.publishedAt), lt(eventOutbox.publishedAt, before)))
        .orderBy(asc(eventOutbox.id))
        .limit(this.purgeBatch)
        .for('update', { skipLocked: true });
      const rows = await pacer.step(() =>
        db.delete(eventOutbox).where(inArray(eventOutbox.id, old)).returning({ id: eventOutbox.id }),
      );
      deleted += rows.length;
      metrics.purged(rows.length);
      if (rows.length < this.purgeBatch) break;
    }
    return deleted;
  }
}

/** The sweep as a background part of the app's lifecycle. */
export const outboxSweepPart = (sweep: OutboxSweep): Part => ({
  name: 'outbox sweep',
  start: () => sweep.start(),
  stop: () => sweep.stop(),
});
