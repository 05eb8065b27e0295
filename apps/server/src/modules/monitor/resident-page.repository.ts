import { and, asc, eq, gte, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { beds, deviceMinutes, devices } from '../../db/schema.ts';
import { SLEEP_MONITOR_CODES } from './sleep-monitors.ts';

/** A device of the resident's bed or room (its state comes from the devices module). */
export interface PlacedDevice {
  deviceId: string;
  typeCode: number;
}

/** The resident page's reads besides the resident: the devices around them and the last hour's minutes. */
export class ResidentPageRepository {
  /**
   * The device of the resident's bed, then the room's other devices except the other beds' sleep
   * monitors (each watches its own bed; a fall radar or sensor linked to a bed watches the room).
   */
  devicesAround(db: Executor, bed: { bedId: number; roomId: number }): Promise<PlacedDevice[]> {
    return db
      .select({
        deviceId: devices.deviceId,
        typeCode: devices.typeCode,
      })
      .from(beds)
      .innerJoin(devices, eq(devices.id, beds.deviceId))
      .where(
        and(
          eq(beds.roomId, bed.roomId),
          or(eq(beds.id, bed.bedId), notInArray(devices.typeCode, [...SLEEP_MONITOR_CODES])),
        ),
      )
      .orderBy(sql`${beds.id} <> ${bed.bedId}`, asc(devices.deviceId));
  }

  /** A device's minutes from `from` on, oldest first. */
  minutes(db: Executor, deviceId: string, from: Date) {
    return db
      .select({
        minute: deviceMinutes.minute,
        hrAvg: deviceMinutes.hrAvg,
        rrAvg: deviceMinutes.rrAvg,
        inBedSeconds: deviceMinutes.inBedSeconds,
      })
      .from(deviceMinutes)
      .where(and(eq(deviceMinutes.deviceId, deviceId), gte(deviceMinutes.minute, from)))
      .orderBy(asc(deviceMinutes.minute));
  }
}
