import { batchAddBunk, insertArea, insertRoom, updateBunk } from '@vigil/contract';
import { devices, deviceStock, residents } from '../db/schema.ts';
import type { TestApp } from './harness.ts';
import type { ProbeRefs } from './tenancy-probe.ts';

/**
 * Facility rows for the tenancy matrix: the foreign tenant's area, floor, room and beds (a
 * resident and a bed device linked to one of them, every name carrying the marker), and one
 * harmless row of each kind for the probing tenant. The own bed keeps a device so no probe can
 * delete it and the calls after deleteBunk still reach their later checks.
 */
export const seedFacility = async (
  app: TestApp,
  foreign: { providerId: number; token: string },
  own: { providerId: number; token: string },
): Promise<ProbeRefs['objects']> => {
  const b = await place(app, foreign, 'FOREIGNB');
  const a = await place(app, own, 'A');
  return {
    area: {
      foreign: [
        { label: 'B-area', id: b.areaId },
        { label: 'B-floor', id: b.floorId },
      ],
      own: a.areaId,
    },
    floor: { foreign: [{ label: 'B-floor', id: b.floorId }], own: a.floorId },
    room: { foreign: [{ label: 'B-room', id: b.roomId }], own: a.roomId },
    roomName: { foreign: [{ label: 'B-room-name', id: b.roomName }], own: a.roomName },
    bed: {
      foreign: [
        { label: 'B-bed-occupied', id: b.bedIds[0] ?? 0 },
        { label: 'B-bed-free', id: b.bedIds[1] ?? 0 },
      ],
      own: a.bedIds[0] ?? 0,
    },
    resident: { foreign: [{ label: 'B-resident-in-bed', id: b.residentId }], own: a.residentId },
    deviceCode: { foreign: [{ label: 'B-bed-device', id: b.deviceCode }], own: a.deviceCode },
  };
};

/** Kinds seeded by several domains (resident, …) keep every domain's foreign rows. */
export const mergeObjects = (...parts: ProbeRefs['objects'][]): ProbeRefs['objects'] => {
  const out: ProbeRefs['objects'] = {};
  for (const part of parts) {
    for (const [kind, value] of Object.entries(part)) {
      const seen = out[kind];
      out[kind] = seen
        ? {
            foreign: [...seen.foreign, ...value.foreign],
            ...(seen.own === undefined ? { own: value.own } : { own: seen.own }),
          }
        : value;
    }
  }
  return out;
};

const must = <T>(what: string, res: { status: number; msg: string; data: T | null }): T => {
  if (res.status !== 200 || res.data === null) throw new Error(`seed ${what}: ${res.status} ${res.msg}`);
  return res.data;
};

const place = async (app: TestApp, tenant: { providerId: number; token: string }, prefix: string) => {
  const { token, providerId } = tenant;
  const area = must(
    'area',
    await app.call(insertArea, { name: `${prefix}-Area`, remark: `${prefix} remark` }, { token }),
  );
  const floor = must('floor', await app.call(insertArea, { name: `${prefix}-Floor`, areaId: area.id }, { token }));
  const roomName = `${prefix}-Room`;
  const room = must('room', await app.call(insertRoom, { floorId: floor.id, name: roomName }, { token }));
  const roomId = room.ids[0] ?? 0;
  const beds = must('beds', await app.call(batchAddBunk, { roomId, name: `${prefix}-Bed1,${prefix}-Bed2` }, { token }));
  const { db } = app.database;
  const [resident] = await db
    .insert(residents)
    .values({ providerId, name: `${prefix} Resident`, gender: 0, remark: `${prefix} remark` })
    .returning({ id: residents.id });
  const deviceCode = `${prefix}-BED-DEV-1`;
  const [stock] = await db
    .insert(deviceStock)
    .values({ deviceId: deviceCode, typeCode: 49 })
    .returning({ id: deviceStock.id });
  if (!resident || !stock) throw new Error('seed facility resident/device');
  await db.insert(devices).values({ providerId, stockId: stock.id, deviceId: deviceCode, typeCode: 49 });
  const bedId = beds.ids[0] ?? 0;
  // The foreign bed holds the foreign resident; the own bed keeps only its device (the own resident stays free).
  const link = prefix === 'A' ? { deviceId: deviceCode } : { deviceId: deviceCode, userId: resident.id };
  must('bed links', await app.call(updateBunk, { id: bedId, ...link }, { token }));
  return {
    areaId: area.id,
    floorId: floor.id,
    roomId,
    roomName,
    bedIds: beds.ids,
    residentId: resident.id,
    deviceCode,
  };
};
