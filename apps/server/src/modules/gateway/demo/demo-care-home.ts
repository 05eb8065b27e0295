import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { asc, count, eq } from 'drizzle-orm';
import {
  adminLogin,
  batchAddBunk,
  createClient,
  deviceCalls,
  insertArea,
  insertProvider,
  insertResident,
  insertRoom,
  updateBunk,
  type ApiClient,
  type DeviceKind,
} from '@vigil/contract';
import {
  parseDeviceCounts,
  planFleet,
  provisionFleet,
  secretsFor,
  startFleet,
  type Fleet,
  type FleetPlan,
} from '@vigil/simulator';
import type { Log } from '../../../core/log.ts';
import type { Db } from '../../../db/database.ts';
import { accounts, providers } from '../../../db/schema.ts';
import { generatePassword } from '../../auth/password.policy.ts';
import type { SessionStore } from '../../auth/session.store.ts';
import type { SettingsService } from '../../system/settings.service.ts';

/** The setting that remembers the demo home, so later starts run its devices again. */
export const DEMO_SETTING = 'demo.careHome';

export interface DemoRecord {
  providerId: number;
  userName: string;
  prefix: string;
  seed: string;
  salt: string;
}

/** One device of every type, and a sleep monitor for each of the first four beds. */
export const DEMO_DEVICES = 'all=1,sleep=3';
const ROOMS = ['101', '102', '103', '104'];
const RESIDENTS: { name: string; gender: 0 | 1; birthDate: string }[] = [
  { name: 'Margaret Ellis', gender: 1, birthDate: '1938-04-12' },
  { name: 'Harold Brooks', gender: 0, birthDate: '1935-11-02' },
  { name: 'Edith Warren', gender: 1, birthDate: '1941-07-23' },
  { name: 'Walter Hayes', gender: 0, birthDate: '1939-01-30' },
  { name: 'Dorothy Lane', gender: 1, birthDate: '1943-09-15' },
  { name: 'Arthur Pike', gender: 0, birthDate: '1936-06-08' },
];

type DemoPlace = { name: string; roomId?: number; bunkId?: number; areaId?: number; userId?: number };

/**
 * Where the demo's devices are, by kind and in plan order: call buttons at a bed and in a
 * bathroom, door sensors on a room door and the exit door, a corridor smoke sensor and the host
 * on the floor, the other sensors in rooms, the badge on a resident. Sleep monitors and the fall
 * radar are placed by their beds.
 */
const demoPlaces = (home: {
  rooms: readonly number[];
  beds: readonly number[];
  floorId: number;
  residentIds: readonly number[];
}): Partial<Record<DeviceKind, DemoPlace[]>> => {
  const [r101, r102, r103, r104] = home.rooms;
  const [, , bed102A] = home.beds;
  const floor = home.floorId;
  return {
    emergency_button: [
      { name: 'Bedside call button', bunkId: bed102A ?? 0 },
      { name: 'Bathroom call button', roomId: r102 ?? 0 },
    ],
    door_magnet: [
      { name: 'Bathroom door', roomId: r102 ?? 0 },
      { name: 'Exit door', areaId: floor },
    ],
    smoke_sensor: [{ name: 'Corridor smoke sensor', areaId: floor }],
    gas_sensor: [{ name: 'Kitchenette gas sensor', roomId: r101 ?? 0 }],
    co_sensor: [{ name: 'CO sensor', roomId: r103 ?? 0 }],
    flood_sensor: [{ name: 'Bathroom floor', roomId: r102 ?? 0 }],
    infrared_motion: [
      { name: 'Motion detector', roomId: r103 ?? 0 },
      { name: 'Motion detector', roomId: r104 ?? 0 },
    ],
    gateway_host: [{ name: 'Ground floor gateway', areaId: floor }],
    badge: [{ name: 'Badge', userId: home.residentIds[0] ?? 0 }],
  };
};

export interface DemoDeps {
  db: Db;
  settings: SettingsService;
  sessions: SessionStore;
  log: Log;
  dataDir: string;
  /** The running server's API, e.g. http://127.0.0.1:8080. */
  api: string;
  /** Where the demo's devices connect: the embedded broker or MQTT_URL. */
  mqttUrl: string;
  /** Seconds of simulated time per second (1: real time). */
  speed?: number;
}

export interface RunningDemo {
  record: DemoRecord;
  plan: FleetPlan;
  fleet: Fleet;
  /** The provider's login, only on the start that created the home. */
  login?: { userName: string; password: string };
  stop(): Promise<void>;
}

const must = async <T>(what: string, work: Promise<T>): Promise<T> => {
  try {
    return await work;
  } catch (error) {
    throw new Error(`demo care home: ${what} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
};

/**
 * A demo care home for a newcomer: on an empty database, a class 1 provider with its login
 * (printed once, like the administrator's), a floor of rooms and beds, residents, a device of
 * every kind registered with secrets and added to the provider — all through the same API an
 * administrator uses — and then the simulator runs those devices in-process, so the console
 * shows devices online and vitals moving within a minute. Later starts only run the devices.
 */
export const startDemo = async (deps: DemoDeps): Promise<RunningDemo | undefined> => {
  let record = await deps.settings.get<DemoRecord>(DEMO_SETTING);
  let login: RunningDemo['login'];
  const plan = (r: DemoRecord) => planFleet(parseDeviceCounts(DEMO_DEVICES), r.prefix);
  if (!record) {
    const [providerCount] = await deps.db.select({ n: count() }).from(providers);
    if ((providerCount?.n ?? 0) > 0) {
      deps.log.info({}, 'demo care home: not created, the database already holds providers');
      return undefined;
    }
    const created = await createDemo(deps, plan);
    record = created.record;
    login = created.login;
  }
  const fleetPlan = plan(record);
  const secrets = secretsFor(fleetPlan, record.seed, record.salt);
  const fleet = await startFleet({
    url: deps.mqttUrl,
    plan: fleetPlan,
    secrets,
    seed: record.seed,
    speed: deps.speed ?? 1,
  });
  fleet.on('warning', (line) => deps.log.warn({ line }, 'demo devices'));
  deps.log.info(
    { devices: fleetPlan.devices.length },
    'demo care home: simulated devices running (VIGIL_DEMO=0 turns them off)',
  );
  return { record, plan: fleetPlan, fleet, ...(login ? { login } : {}), stop: () => fleet.stop() };
};

const adminSession = async (deps: DemoDeps): Promise<ApiClient> => {
  const [admin] = await deps.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.role, 'SUPER_ROLE'))
    .orderBy(asc(accounts.id))
    .limit(1);
  if (!admin) throw new Error('demo care home: no administrator account');
  const { token } = await deps.sessions.create(admin.id, {
    channel: 'PC',
    ip: '127.0.0.1',
    userAgent: 'vigil-demo',
    currentProviderId: null,
  });
  return createClient({ baseUrl: deps.api, getToken: () => token, getLanguage: () => 'en-US' });
};

const createDemo = async (
  deps: DemoDeps,
  plan: (r: DemoRecord) => FleetPlan,
): Promise<{ record: DemoRecord; login: { userName: string; password: string } }> => {
  const userName = 'demohome';
  const password = generatePassword();
  const admin = await adminSession(deps);
  // A class 1 group with the home as its class 2 provider: the home's login opens real-time
  // monitoring and the alarm screens, which a class 1 provider without a home cannot.
  const group = await must(
    'creating the group',
    admin.call(insertProvider, {
      name: 'Sunrise Demo Group',
      userName: 'demogroup',
      passWord: generatePassword(),
      rsa: false,
      remark: 'Demo (VIGIL_DEMO)',
    }),
  );
  const provider = await must(
    'creating the provider',
    admin.call(insertProvider, {
      name: 'Sunrise Demo Care Home',
      userName,
      passWord: password,
      rsa: false,
      parentId: group.id,
      remark: 'Demo (VIGIL_DEMO)',
    }),
  );
  const record: DemoRecord = {
    providerId: provider.id,
    userName,
    prefix: 'DEMO',
    seed: randomBytes(8).toString('hex'),
    salt: randomBytes(8).toString('hex'),
  };
  // The home's own login sets up its building and residents, as its staff would.
  let homeToken = '';
  const home = createClient({ baseUrl: deps.api, getToken: () => homeToken, getLanguage: () => 'en-US' });
  homeToken = (
    await must('signing in', home.call(adminLogin, { userName, passWord: password, from: 'PC', rsa: false }))
  ).token;
  const building = await must('the building', home.call(insertArea, { name: 'Main Building' }));
  const floor = await must('the floor', home.call(insertArea, { name: 'Ground Floor', areaId: building.id }));
  const rooms = await must('the rooms', home.call(insertRoom, { floorId: floor.id, name: ROOMS.join(',') }));
  const beds: number[] = [];
  for (const roomId of rooms.ids) {
    const added = await must('the beds', home.call(batchAddBunk, { roomId, name: 'A,B', mattress: 'sponge' }));
    beds.push(...added.ids);
  }

  const fleetPlan = plan(record);
  const secrets = secretsFor(fleetPlan, record.seed, record.salt);
  await must(
    'registering the devices',
    provisionFleet(fleetPlan, secrets, {
      api: deps.api,
      adminUser: '',
      adminPassword: '',
      client: admin,
      providerId: provider.id,
      batch: 'demo',
    }),
  );

  // Residents in the first beds, each bed with a sleep monitor or the fall radar.
  const bedDevices = fleetPlan.devices.filter((d) => d.kind === 'sleep_monitor' || d.kind === 'fall_radar');
  const residentIds: number[] = [];
  for (const [index, resident] of RESIDENTS.entries()) {
    const { id } = await must('a resident', home.call(insertResident, { ...resident, confirm: true }));
    residentIds.push(id);
    const bedId = beds[index];
    if (bedId === undefined) break;
    const device = bedDevices[index];
    await must(
      'a bed',
      home.call(updateBunk, { id: bedId, userId: id, ...(device ? { deviceId: device.id } : {}), confirm: true }),
    );
  }

  // Every other device has its place (decision 0046), so its alarms read as a caregiver expects.
  const places = demoPlaces({ rooms: rooms.ids, beds, floorId: floor.id, residentIds });
  const seen = new Map<string, number>();
  for (const device of fleetPlan.devices) {
    const n = seen.get(device.kind) ?? 0;
    seen.set(device.kind, n + 1);
    const place = places[device.kind]?.[n];
    if (!place) continue;
    await must(`placing ${device.id}`, home.call(deviceCalls.updateDevice, { deviceId: device.id, ...place }));
  }

  const login = { userName, password };
  await deps.settings.put(DEMO_SETTING, record);
  const file = path.join(deps.dataDir, 'demo-login');
  fs.mkdirSync(deps.dataDir, { recursive: true });
  fs.writeFileSync(file, `${userName}\n${login.password}\n`, { mode: 0o600 });
  deps.log.warn(
    { userName },
    `Created the demo care home "Sunrise Demo Care Home": sign in as ${userName} with password ${login.password} ` +
      `(shown once; also in ${file}). VIGIL_DEMO=0 turns the demo off.`,
  );
  return { record, login };
};
