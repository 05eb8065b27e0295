import { batchAddBunk, insertArea, insertRoom } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { beds, devices, deviceStock, residents } from '../../db/schema.ts';
import type { TestApp } from '../../test/harness.ts';

/**
 * Test helpers of the facility module. Residents and devices belong to other modules; tests insert
 * the few rows they need directly (only the columns those modules own at registration).
 */

const must = <T>(what: string, res: { status: number; msg: string; data: T | null }): T => {
  if (res.status !== 200 || res.data === null) throw new Error(`${what}: ${res.status} ${res.msg}`);
  return res.data;
};

export interface Place {
  areaId: number;
  floorId: number;
  roomId: number;
  bedIds: number[];
}

/** An area with one floor, one room and the named beds, through the API. */
export const makePlace = async (
  app: TestApp,
  token: string,
  names: { area: string; floor?: string; room?: string; beds?: string[]; providerId?: number },
): Promise<Place> => {
  const area = must(
    `area ${names.area}`,
    await app.call(
      insertArea,
      { name: names.area, ...(names.providerId ? { providerId: names.providerId } : {}) },
      { token },
    ),
  );
  const floor = must('floor', await app.call(insertArea, { name: names.floor ?? '1F', areaId: area.id }, { token }));
  const room = must('room', await app.call(insertRoom, { floorId: floor.id, name: names.room ?? '101' }, { token }));
  const roomId = room.ids[0] ?? 0;
  const bedNames = names.beds ?? ['1', '2'];
  const bedIds = bedNames.length
    ? must('beds', await app.call(batchAddBunk, { roomId, name: bedNames.join(',') }, { token })).ids
    : [];
  return { areaId: area.id, floorId: floor.id, roomId, bedIds };
};

/** A registered resident of a provider (what the residents module inserts at registration). */
export const makeResident = async (app: TestApp, providerId: number, name: string): Promise<number> => {
  const [row] = await app.database.db
    .insert(residents)
    .values({ providerId, name, gender: 1 })
    .returning({ id: residents.id });
  if (!row) throw new Error('resident insert');
  return row.id;
};

let stockCounter = 0;
/** A device of a provider, registered in the stock first (what the devices module does). */
export const makeDevice = async (
  app: TestApp,
  providerId: number,
  code: string,
  typeCode = 49,
): Promise<{ id: number; code: string }> => {
  const { db } = app.database;
  const [stock] = await db
    .insert(deviceStock)
    .values({ deviceId: code, typeCode, batch: `t${++stockCounter}` })
    .returning({ id: deviceStock.id });
  if (!stock) throw new Error('stock insert');
  const [device] = await db
    .insert(devices)
    .values({ providerId, stockId: stock.id, deviceId: code, typeCode })
    .returning({ id: devices.id });
  if (!device) throw new Error('device insert');
  return { id: device.id, code };
};

export const residentRow = async (app: TestApp, id: number) => {
  const [row] = await app.database.db.select().from(residents).where(eq(residents.id, id));
  if (!row) throw new Error(`resident ${id} missing`);
  return row;
};

export const bedRow = async (app: TestApp, id: number) => {
  const [row] = await app.database.db.select().from(beds).where(eq(beds.id, id));
  if (!row) throw new Error(`bed ${id} missing`);
  return row;
};

/** Beds holding a resident / a device (should never be more than one). */
export const bedsHolding = async (app: TestApp, link: { residentId?: number; deviceRowId?: number }) => {
  const { db } = app.database;
  if (link.residentId !== undefined) return db.select().from(beds).where(eq(beds.residentId, link.residentId));
  if (link.deviceRowId !== undefined) return db.select().from(beds).where(eq(beds.deviceId, link.deviceRowId));
  return [];
};
