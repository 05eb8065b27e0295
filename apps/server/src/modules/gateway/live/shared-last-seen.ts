import { inArray } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { deviceLiveState } from '../../../db/schema.ts';
import type { SharedLastSeen } from '../ingest/presence.ts';
import { LAST_SEEN_WRITE_MS } from './live-state.ts';

/**
 * The last-seen times every instance writes to `device_live_state` (merged with `greatest`), read
 * back for the devices one instance has not heard from: the shared state that decides silence
 * when an external broker shares each device's messages out between several instances.
 */
export class DatabaseLastSeen implements SharedLastSeen {
  /** A sighting is written at most LAST_SEEN_WRITE_MS after the one before, then within the writer's next flush. */
  readonly lagMs = LAST_SEEN_WRITE_MS + 5_000;

  constructor(private readonly db: Db) {}

  async of(deviceIds: readonly string[]): Promise<Map<string, Date>> {
    const seen = new Map<string, Date>();
    for (let i = 0; i < deviceIds.length; i += 1_000) {
      const rows = await this.db
        .select({ deviceId: deviceLiveState.deviceId, lastSeenAt: deviceLiveState.lastSeenAt })
        .from(deviceLiveState)
        .where(inArray(deviceLiveState.deviceId, deviceIds.slice(i, i + 1_000)));
      for (const row of rows) seen.set(row.deviceId, row.lastSeenAt);
    }
    return seen;
  }
}
