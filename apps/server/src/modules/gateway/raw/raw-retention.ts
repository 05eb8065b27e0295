import type { Clock } from '../../../clock.ts';
import type { Part } from '../../../core/lifecycle.ts';
import type { Db } from '../../../db/database.ts';
import { yieldToEventLoop } from '../../../core/yield.ts';
import { RawDataRepository, type RetainedTable } from './raw.repository.ts';

const DAY_MS = 86_400_000;

export interface RawRetentionOptions {
  /** Rows per DELETE statement. */
  batchSize?: number;
  /** How often a run starts while the server runs. */
  everyMs?: number;
  /** Default `device_raw`; `device_second` keeps the sleep monitors' seconds the same way. */
  table?: RetainedTable;
}

export interface RawPurge {
  /** Rows recorded before this were deleted. */
  before: Date;
  deleted: number;
  /** DELETE statements made (the last one deleted fewer rows than a batch). */
  batches: number;
}

/**
 * Keeps raw samples (`device_raw`), or a sleep monitor's seconds (`device_second`), for the
 * retention period (`RAW_RETENTION_DAYS`) and deletes
 * older rows, once at start and every hour: a bounded DELETE per statement, each its own short
 * transaction, so neither the ingest nor the lists wait behind one long delete. Several instances
 * may run it at once: rows another instance is deleting are skipped.
 */
export class RawRetention {
  private readonly repo = new RawDataRepository();
  private readonly batchSize: number;
  private readonly everyMs: number;
  readonly table: RetainedTable;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RawPurge> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly days: number,
    options: RawRetentionOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 5_000;
    this.everyMs = options.everyMs ?? 60 * 60_000;
    this.table = options.table ?? 'device_raw';
  }

  /** Deletes every row older than the period, batch by batch; a run already going is joined. */
  run(): Promise<RawPurge> {
    if (!this.running) this.stopping = false;
    this.running ??= this.purge().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves when no run is going (tests wait for the run at start before writing old rows). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async purge(): Promise<RawPurge> {
    const before = new Date(this.clock.now().getTime() - this.days * DAY_MS);
    let deleted = 0;
    let batches = 0;
    while (!this.stopping) {
      const n = await this.repo.removeOlderThan(this.db, before, this.batchSize, this.table);
      batches++;
      deleted += n;
      if (n < this.batchSize) break;
      // Let requests waiting for the connection (PGlite has one) go between batches.
      await yieldToEventLoop();
    }
    return { before, deleted, batches };
  }

  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    const tick = () => void this.run().catch(onError);
    tick();
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
  }

  /** Stops the timer; a run going stops after its current batch. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping = true;
    await this.idle();
  }
}

/** The retention as a background part of the app's lifecycle. */
export const rawRetentionPart = (retention: RawRetention): Part => ({
  name: `retention of ${retention.table}`,
  start: (report) => retention.start(report),
  stop: () => retention.stop(),
});
