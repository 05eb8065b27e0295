import type { Telemetry } from '@vigil/contract';
import { and, gte, inArray, max, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { deviceMinutes } from '../../../db/schema.ts';
import type { DeviceFeed } from '../ingest/device-feed.ts';

/** A sample that measured someone: a heart or breathing rate (0 means none measured), or someone in bed. */
export const measuresSomeone = (t: Pick<Telemetry, 'hr' | 'rr' | 'inBed'>): boolean => t.hr > 0 || t.rr > 0 || t.inBed;

/**
 * When each sleep monitor last measured someone: in memory from the gateway's feed, and from the
 * stored minutes (`device_minute`) for a monitor this instance has not heard measure since it started
 * (another instance did, or it was before a restart). Memory is bounded by the devices that send.
 */
export class MeasuredVitals {
  private readonly lastMs = new Map<string, number>();

  constructor(feed: Pick<DeviceFeed, 'subscribe'>) {
    feed.subscribe(
      (item) => {
        if (item.kind === 'vitals' && measuresSomeone(item.telemetry)) {
          this.lastMs.set(item.context.deviceId, item.receivedAt.getTime());
        }
      },
      ['vitals'],
    );
  }

  /** The latest measurement since `since` of each device that has one (device ID → time). */
  async since(db: Executor, deviceIds: readonly string[], since: Date): Promise<Map<string, Date>> {
    const out = new Map<string, Date>();
    const missing: string[] = [];
    for (const deviceId of new Set(deviceIds)) {
      const ms = this.lastMs.get(deviceId);
      if (ms !== undefined && ms >= since.getTime()) out.set(deviceId, new Date(ms));
      else missing.push(deviceId);
    }
    if (!missing.length) return out;
    const rows = await db
      .select({ deviceId: deviceMinutes.deviceId, minute: max(deviceMinutes.minute) })
      .from(deviceMinutes)
      .where(
        and(
          inArray(deviceMinutes.deviceId, missing),
          gte(deviceMinutes.minute, since),
          or(
            sql`${deviceMinutes.hrSamples} > 0`,
            sql`${deviceMinutes.rrSamples} > 0`,
            sql`${deviceMinutes.inBedSeconds} > 0`,
          ),
        ),
      )
      .groupBy(deviceMinutes.deviceId);
    // A stored minute is known by its start: the earliest the measurement can have been.
    for (const row of rows) if (row.minute) out.set(row.deviceId, row.minute);
    return out;
  }
}
