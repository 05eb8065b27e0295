import { insertResident, userCheckIn, type CallRequest } from '@vigil/contract';
import { areas, beds, caregivers, communities, rooms } from '../../db/schema.ts';
import type { TestApp } from '../../test/harness.ts';

/**
 * Test helpers of the residents module. Places, caregivers and communities belong to other
 * modules: tests write those rows directly; check-in goes through the facility's call, the only
 * writer of occupancy.
 */

type InsertInput = CallRequest<typeof insertResident>;

/** A valid insertUser body; every call gets a fresh name unless one is given. */
let counter = 0;
export const residentInput = (overrides: Partial<InsertInput> = {}): InsertInput => ({
  name: `Resident ${++counter}`,
  gender: 1,
  birthDate: '1940-05-01',
  ...overrides,
});

export const mustInsert = async (app: TestApp, token: string, overrides: Partial<InsertInput> = {}) => {
  const res = await app.call(insertResident, residentInput(overrides), { token });
  if (res.status !== 200 || !res.data) throw new Error(`insertUser: ${res.status} ${res.msgKey} ${res.msg}`);
  return res.data.id;
};

/** An area with one floor, one room and `bedCount` beds of the provider. */
export const seedPlaces = async (app: TestApp, providerId: number, tag: string, bedCount = 2) => {
  const { db } = app.database;
  const [area] = await db
    .insert(areas)
    .values({ providerId, name: `${tag} Building` })
    .returning();
  if (!area) throw new Error('seed area');
  const [floor] = await db
    .insert(areas)
    .values({ providerId, parentId: area.id, name: `${tag} Floor 1` })
    .returning();
  if (!floor) throw new Error('seed floor');
  const [room] = await db
    .insert(rooms)
    .values({ providerId, floorId: floor.id, name: `${tag} Room 101` })
    .returning();
  if (!room) throw new Error('seed room');
  const bedRows = await db
    .insert(beds)
    .values(Array.from({ length: bedCount }, (_, i) => ({ providerId, roomId: room.id, name: `${tag} Bed ${i + 1}` })))
    .returning();
  return { area, floor, room, beds: bedRows };
};

export const seedCaregiver = async (app: TestApp, providerId: number, name: string) => {
  const [row] = await app.database.db
    .insert(caregivers)
    .values({ providerId, name, phone: `+4930${String(++counter).padStart(7, '0')}` })
    .returning({ id: caregivers.id });
  if (!row) throw new Error(`seed caregiver ${name}`);
  return row.id;
};

export const seedCommunity = async (app: TestApp, providerId: number, name: string) => {
  const [row] = await app.database.db
    .insert(communities)
    .values({ providerId, name })
    .returning({ id: communities.id });
  if (!row) throw new Error(`seed community ${name}`);
  return row.id;
};

/** Checks a resident in through the facility's call. */
export const checkIn = async (app: TestApp, token: string, userId: number, bunkId: number) => {
  const res = await app.call(userCheckIn, { userId, bunkId }, { token });
  if (res.status !== 200) throw new Error(`check-in ${userId} → ${bunkId}: ${res.status} ${res.msgKey} ${res.msg}`);
};
