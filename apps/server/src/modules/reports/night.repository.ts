import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceMinutes, deviceSeconds } from '../../db/schema.ts';
import type { StoredMinute } from './night-assembly.ts';

/** Reads what was stored of a resident's nights. */
export class NightRepository {
  /**
   * The resident's sleep-monitor minutes in `[from, to)`, whatever monitor their bed had then
   * (the minute rows carry the resident of the moment), with their seconds where kept.
   */
  async minutesOf(db: Executor, residentId: number, from: Date, to: Date): Promise<StoredMinute[]> {
    return db
      .select({ minute: deviceMinutes.minute, rri: deviceMinutes.rri, seconds: deviceSeconds.seconds })
      .from(deviceMinutes)
      .leftJoin(
        deviceSeconds,
        and(eq(deviceSeconds.deviceId, deviceMinutes.deviceId), eq(deviceSeconds.minute, deviceMinutes.minute)),
      )
      .where(
        and(eq(deviceMinutes.residentId, residentId), gte(deviceMinutes.minute, from), lt(deviceMinutes.minute, to)),
      )
      .orderBy(asc(deviceMinutes.minute));
  }
}
