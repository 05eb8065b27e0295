import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/database.ts';
import type { IngestMetrics } from './ingest-metrics.ts';
import type { IngestRepository } from './ingest.repository.ts';
import { yieldToEventLoop } from '../../../core/yield.ts';
import type { MinuteRollup, MinuteSummary } from './minute-rollup.ts';

export interface TelemetryWriterOptions {
  intervalMs?: number;
  batchSize?: number;
  /** Closed minutes held while the database is down; beyond it the oldest are dropped (counted). */
  maxHeld?: number;
}

/**
 * Writes closed minutes (rollups, their seconds, and raw samples where upload is on) every few seconds in
 * multi-row upserts. While the database is down the minutes wait, up to a bound; telemetry is
 * QoS 0 and a lost minute of vitals is recoverable, a blocked ingest is not.
 */
export class TelemetryWriter {
  private held: MinuteSummary[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly maxHeld: number;
  lastError: unknown = undefined;

  constructor(
    private readonly db: Db,
    private readonly repo: IngestRepository,
    private readonly rollup: MinuteRollup,
    private readonly clock: Clock,
    private readonly metrics: IngestMetrics,
    options: TelemetryWriterOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 5_000;
    // Small enough that one batch (built and run on this thread with PGlite) holds alarms back ~30 ms.
    this.batchSize = options.batchSize ?? 250;
    this.maxHeld = options.maxHeld ?? 200_000;
  }

  /** Closed minutes waiting to be written (not the minutes still being summed). */
  get pending(): number {
    return this.held.length;
  }

  /** Writes the closed minutes (every minute with `all`, on stop). */
  flush(all = false): Promise<void> {
    this.flushing ??= this.write(all).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flush().catch(onError), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing?.catch(() => undefined);
    await this.flush(true);
  }

  private async write(all: boolean): Promise<void> {
    const closed = all ? this.rollup.takeAll() : this.rollup.takeClosed(this.clock.now().getTime());
    this.held.push(...closed);
    if (this.held.length > this.maxHeld) {
      const dropped = this.held.splice(0, this.held.length - this.maxHeld);
      this.metrics.dropped.inc({ reason: 'backlog' }, dropped.length);
    }
    this.metrics.backlog.set({ queue: 'minutes' }, this.held.length);
    while (this.held.length) {
      const batch = this.held.slice(0, this.batchSize);
      const started = performance.now();
      try {
        await this.db.transaction(async (tx) => {
          await this.repo.upsertMinutes(tx, batch);
          await this.repo.upsertSeconds(tx, batch);
          await this.repo.upsertRaw(tx, batch);
        });
      } catch (error) {
        this.lastError = error;
        throw error;
      }
      this.metrics.flush.observe({ queue: 'minutes' }, (performance.now() - started) / 1000);
      this.held.splice(0, batch.length);
      this.metrics.backlog.set({ queue: 'minutes' }, this.held.length);
      // A minute of 5,000 monitors is twenty batches: alarms and messages go between them.
      if (this.held.length) await yieldToEventLoop();
    }
    this.lastError = undefined;
  }
}
