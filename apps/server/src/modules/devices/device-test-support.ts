/** Test support of the devices module: a small world of providers, registry entries and beds. */
import { deviceCalls, type DeviceStockRowInput } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { areas, beds, devices, residents, rooms } from '../../db/schema.ts';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, type TestApp } from '../../test/harness.ts';

/** Type codes of the catalogue used by the tests. */
export const T = {
  sleep: 49,
  sleepW: 52,
  fallAbroad: 21007,
  fallDomestic: 21011,
  sos: 20993,
  door: 20995,
  smoke: 20996,
  infrared: 21010,
  badge: 21000,
  gateway: 21008,
  watch: 21012,
} as const;

export interface TenantLogin {
  id: number;
  userName: string;
  password: string;
  token: string;
}

export interface DeviceWorld {
  admin: string;
  /** Class 1 provider A with its class 2 provider A-Home. */
  aGroup: TenantLogin;
  aHome: TenantLogin;
  /** Another class 1 provider: the foreign tenant. */
  bGroup: TenantLogin;
}

export const deviceWorld = async (app: TestApp, prefix = 'Dev'): Promise<DeviceWorld> => {
  const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  const withToken = async (p: { id: number; userName: string; password: string }) => ({
    ...p,
    token: await app.login(p.userName, p.password),
  });
  const aGroup = await withToken(await makeProvider(app, admin, `${prefix} Group A`));
  const aHome = await withToken(await makeProvider(app, admin, `${prefix} Home A`, { parentId: aGroup.id }));
  const bGroup = await withToken(await makeProvider(app, admin, `${prefix} Group B`));
  return { admin, aGroup, aHome, bGroup };
};

/** Loads registry entries through the API; fails the test when refused. */
export const loadStock = async (app: TestApp, token: string, rows: DeviceStockRowInput[]) => {
  const res = await app.call(deviceCalls.deviceStockImport, { rows }, { token });
  if (res.status !== 200) throw new Error(`stock import: ${res.status} ${res.msg} ${JSON.stringify(res.data)}`);
  return res;
};

/** Adds a device through the API; fails the test when refused. */
export const addDevice = async (
  app: TestApp,
  token: string,
  deviceId: string,
  deviceType: number,
  extra: { providerId?: number; name?: string; commMode?: 'wifi' | 'nb-iot' | '4g' } = {},
) => {
  const res = await app.call(deviceCalls.insertDevice, { deviceId, deviceType, ...extra }, { token });
  if (res.status !== 200 || !res.data) throw new Error(`insertDevice ${deviceId}: ${res.status} ${res.msg}`);
  return res.data;
};

/**
 * An area → floor → room → bed of a provider, optionally with a resident, written straight to the
 * facility tables (the facility module owns them; the devices module only reads them).
 */
export const placeBed = async (
  app: TestApp,
  providerId: number,
  names: { area: string; room: string; bed: string; resident?: string },
) => {
  const { db } = app.database;
  const [area] = await db.insert(areas).values({ providerId, name: names.area }).returning();
  const [floor] = await db
    .insert(areas)
    .values({ providerId, parentId: area?.id, name: `${names.area} F1` })
    .returning();
  const [room] = await db
    .insert(rooms)
    .values({ providerId, floorId: floor?.id ?? 0, name: names.room })
    .returning();
  let residentId: number | null = null;
  if (names.resident) {
    const [resident] = await db
      .insert(residents)
      .values({ providerId, name: names.resident, gender: 1, state: 'checkedIn' })
      .returning();
    residentId = resident?.id ?? null;
  }
  const [bed] = await db
    .insert(beds)
    .values({ providerId, roomId: room?.id ?? 0, name: names.bed, residentId })
    .returning();
  if (!bed) throw new Error('bed insert failed');
  return { bedId: bed.id, residentId, roomId: bed.roomId, floorId: floor?.id ?? 0, areaId: area?.id ?? 0 };
};

/** Links a device to a bed the way the facility module does (bed.device_id). */
export const linkBed = async (app: TestApp, bedId: number, deviceId: string) => {
  const { db } = app.database;
  const [device] = await db.select().from(devices).where(eq(devices.deviceId, deviceId));
  if (!device) throw new Error(`no device ${deviceId}`);
  await db.update(beds).set({ deviceId: device.id }).where(eq(beds.id, bedId));
};

/** What the device gateway will do: record a device's live state. */
export const setLive = async (app: TestApp, deviceId: string, values: { online?: boolean; battery?: number }) => {
  await app.database.db.update(devices).set(values).where(eq(devices.deviceId, deviceId));
};

/** The caller behind a token, as services see it. */
export const callerFor = async (app: TestApp, token: string) => {
  const outcome = await app.services.sessions.authenticate(token);
  if (outcome.kind !== 'ok') throw new Error(`token not valid: ${outcome.kind}`);
  return outcome.caller;
};
