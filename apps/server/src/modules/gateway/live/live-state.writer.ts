import { sql } from 'drizzle-orm';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/database.ts';
import { deviceLiveState } from '../../../db/schema.ts';
import { yieldToEventLoop } from '../../../core/yield.ts';
import type { LiveState, LiveStateStore } from './live-state.ts';

export interface LiveStateWriterOptions {
  /** Rows per statement. */
  batchSize?: number;
  /** Flush at least this often while running. */
  intervalMs?: number;
}

/**
 * Writes the store's dirty entries to `device_live_state`: one multi-row upsert per batch,
 * never one statement per message. A failed write (database slow or down) puts the entries
 * back and the next flush retries them; nothing throws out of the timer.
 */
export class LiveStateWriter {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<number> | undefined;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  /** The last write's failure, for /readyz and the log; cleared by a successful flush. */
  lastError: unknown = undefined;

  constructor(
    private readonly db: Db,
    private readonly store: LiveStateStore,
    private readonly clock: Clock,
    options: LiveStateWriterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.intervalMs = options.intervalMs ?? 1000;
  }

  /** Reads what was persisted into the store (call once before ingest starts). */
  async load(): Promise<number> {
    const rows = await this.db.select().from(deviceLiveState);
    this.store.load(
      rows.map((r): [string, LiveState] => [
        r.deviceId,
        {
          online: r.online,
          lastSeenAt: r.lastSeenAt,
          battery: r.battery,
          signal: r.signal,
          firmwareVersion: r.firmwareVersion,
          hardwareVersion: r.hardwareVersion,
          mat: r.mat === 'connected' || r.mat === 'dislodged' ? r.mat : null,
        },
      ]),
    );
    return rows.length;
  }

  /** Writes every dirty entry, batch by batch; resolves with the number written. One flush at a time. */
  flush(): Promise<number> {
    this.flushing ??= this.writeAll().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.flush().catch(onError);
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async writeAll(): Promise<number> {
    let written = 0;
    for (;;) {
      const batch = this.store.takeDirty(this.batchSize);
      if (!batch.entries.length) {
        this.lastError = undefined;
        return written;
      }
      try {
        await this.upsert(batch.entries);
      } catch (error) {
        batch.putBack();
        this.lastError = error;
        throw error;
      }
      written += batch.entries.length;
      // Several batches a second with thousands of devices: alarms and messages go between them.
      await yieldToEventLoop();
    }
  }

  private async upsert(entries: readonly [string, LiveState][]): Promise<void> {
    const now = this.clock.now();
    await this.db
      .insert(deviceLiveState)
      .values(
        entries.map(([deviceId, s]) => ({
          deviceId,
          online: s.online,
          lastSeenAt: s.lastSeenAt,
          battery: s.battery,
          signal: s.signal,
          firmwareVersion: s.firmwareVersion,
          hardwareVersion: s.hardwareVersion,
          mat: s.mat,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: deviceLiveState.deviceId,
        set: {
          online: sql`excluded.online`,
          lastSeenAt: sql`greatest(${deviceLiveState.lastSeenAt}, excluded.last_seen_at)`,
          battery: sql`excluded.battery`,
          signal: sql`excluded.signal`,
          firmwareVersion: sql`excluded.firmware_version`,
          hardwareVersion: sql`excluded.hardware_version`,
          mat: sql`excluded.mat`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  }
}
