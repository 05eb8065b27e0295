import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { devices } from '../../../db/schema.ts';

/** The pairing flag of sub-devices, set when their gateway host acknowledges a pairing command. */
export class PairingRepository {
  /**
   * Marks a sub-device paired or unpaired, only while it is still under that host (a sub-device
   * replaced or deleted meanwhile is left alone). Returns whether a row changed.
   */
  async setPaired(db: Executor, hostRowId: number, subDeviceId: string, paired: boolean, now: Date): Promise<boolean> {
    const rows = await db
      .update(devices)
      .set({ paired, updatedAt: now })
      .where(and(eq(devices.deviceId, subDeviceId), eq(devices.gatewayId, hostRowId)))
      .returning({ id: devices.id });
    return rows.length > 0;
  }
}
