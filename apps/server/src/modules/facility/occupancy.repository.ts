import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { beds, devices, residents } from '../../db/schema.ts';
import type { Occupancy, ResidentState } from './facility.policy.ts';
import type { BedRow } from './place.repository.ts';

/** Advisory-lock class of "moving this device between beds" (pg_advisory_xact_lock(class, device id)). */
const DEVICE_LOCK_CLASS = 0x5f1a;

export interface ResidentRef extends Occupancy {
  id: number;
  providerId: number;
  name: string;
}

export interface DeviceRef {
  id: number;
  providerId: number;
  deviceId: string;
  typeCode: number;
}

const residentColumns = {
  id: residents.id,
  providerId: residents.providerId,
  name: residents.name,
  state: residents.state,
  roomId: residents.roomId,
  admittedAt: residents.admittedAt,
  checkedOutAt: residents.checkedOutAt,
  loggedOffAt: residents.loggedOffAt,
};

const asResident = (r: Omit<ResidentRef, 'state'> & { state: string }): ResidentRef => ({
  ...r,
  state: r.state as ResidentState,
});

/**
 * Who or what occupies a bed: the bed links (bed.device_id, bed.resident_id) and the resident's
 * occupancy columns (state, room_id, admitted_at, checked_out_at, logged_off_at). The device table
 * is only read (and share-locked so its provider and type cannot change under a link).
 */
export class OccupancyRepository {
  async resident(db: Executor, id: number): Promise<ResidentRef | undefined> {
    const [row] = await db.select(residentColumns).from(residents).where(eq(residents.id, id));
    return row && asResident(row);
  }

  /** Locks resident rows in id order (the first lock every occupancy change takes). */
  async lockResidents(db: Executor, ids: readonly number[]): Promise<Map<number, ResidentRef>> {
    if (!ids.length) return new Map();
    const rows = await db
      .select(residentColumns)
      .from(residents)
      .where(inArray(residents.id, [...ids]))
      .orderBy(asc(residents.id))
      .for('update');
    return new Map(rows.map((r) => [r.id, asResident(r)]));
  }

  /** Serialises every change of one device's bed link, without writing (or row-locking) the device table. */
  async lockDevices(db: Executor, ids: readonly number[]): Promise<void> {
    for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
      await db.execute(sql`select pg_advisory_xact_lock(${DEVICE_LOCK_CLASS}, ${id})`);
    }
  }

  /** Locks bed rows in id order (after residents and devices). */
  async lockBeds(db: Executor, ids: readonly number[]): Promise<Map<number, BedRow>> {
    if (!ids.length) return new Map();
    const rows = await db
      .select()
      .from(beds)
      .where(inArray(beds.id, [...ids]))
      .orderBy(asc(beds.id))
      .for('update');
    return new Map(rows.map((r) => [r.id, r]));
  }

  async bedOfResident(db: Executor, residentId: number): Promise<BedRow | undefined> {
    const [row] = await db.select().from(beds).where(eq(beds.residentId, residentId));
    return row;
  }

  async bedOfDevice(db: Executor, deviceRowId: number): Promise<BedRow | undefined> {
    const [row] = await db.select().from(beds).where(eq(beds.deviceId, deviceRowId));
    return row;
  }

  /** A device by its device ID (case-insensitive) among the given providers (null: any), share-locked. */
  async deviceByCode(
    db: Executor,
    code: string,
    providerIds: readonly number[] | null,
  ): Promise<DeviceRef | undefined> {
    const [row] = await db
      .select({
        id: devices.id,
        providerId: devices.providerId,
        deviceId: devices.deviceId,
        typeCode: devices.typeCode,
      })
      .from(devices)
      .where(
        and(
          sql`upper(${devices.deviceId}) = upper(${code})`,
          providerIds === null ? undefined : inArray(devices.providerId, providerIds.length ? [...providerIds] : [-1]),
        ),
      )
      .limit(1)
      .for('share');
    return row;
  }

  async deviceCode(db: Executor, deviceRowId: number): Promise<string | undefined> {
    const [row] = await db.select({ code: devices.deviceId }).from(devices).where(eq(devices.id, deviceRowId));
    return row?.code;
  }

  async setBed(
    db: Executor,
    id: number,
    values: { deviceId?: number | null; residentId?: number | null; updatedAt: Date },
  ) {
    await db.update(beds).set(values).where(eq(beds.id, id));
  }

  async setOccupancy(db: Executor, id: number, occupancy: Occupancy, now: Date): Promise<void> {
    await db
      .update(residents)
      .set({ ...occupancy, updatedAt: now })
      .where(eq(residents.id, id));
  }

  /** Beds of the given residents (resident id → bed). */
  async bedsOfResidents(db: Executor, residentIds: readonly number[]): Promise<BedRow[]> {
    if (!residentIds.length) return [];
    return db
      .select()
      .from(beds)
      .where(inArray(beds.residentId, [...residentIds]));
  }

  async bedsOfDevices(db: Executor, deviceRowIds: readonly number[]): Promise<BedRow[]> {
    if (!deviceRowIds.length) return [];
    return db
      .select()
      .from(beds)
      .where(inArray(beds.deviceId, [...deviceRowIds]));
  }
}
