/**
 * Facility model at care-group scale: 10,000 residents, 10,000 devices and 10,000 beds in one
 * provider. Prints, for PGlite and (when DATABASE_URL is set) PostgreSQL side by side, the p50 and
 * p95 of the console's list calls through the whole HTTP stack, and the time of a 5,000-row
 * resident import, a 5,000-row device import and a 500-row caregiver import (each with an app
 * account) from .xlsx files; the last column is the ratio
 * PostgreSQL / PGlite measured in the same run.
 *
 * Run: npx tsx bench/facility-scale.ts                       (PGlite only)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/facility-scale.ts
 * Options: BENCH_SCALE=0.1 for a quick run (1,000 of each), BENCH_ROUNDS=40 (samples per list call).
 */
import {
  bunkList,
  bunkSummary,
  deviceBatchAdd,
  deviceCalls,
  nursingBatchAdd,
  residentBatchAdd,
  residentList,
  residentSummary,
  type CallDef,
  type CallRequest,
} from '@vigil/contract';
import { performance } from 'node:perf_hooks';
import type { Caller } from '../apps/server/src/core/caller.ts';
import { uploadForm, workbook } from '../apps/server/src/modules/spreadsheet/sheet-test-support.ts';
import { makeProvider } from '../apps/server/src/test/fixtures.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  createTestApp,
  type DbTarget,
  type TestApp,
} from '../apps/server/src/test/harness.ts';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const N = Math.round(10_000 * SCALE);
const IMPORT_ROWS = Math.round(5_000 * SCALE);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '40');

type Figures = Map<string, number>;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

const callerOf = async (app: TestApp, token: string): Promise<Caller> => {
  const outcome = await app.services.sessions.authenticate(token);
  if (outcome.kind !== 'ok') throw new Error('no caller');
  return outcome.caller;
};

const must = (what: string, res: { status: number; msg: string }) => {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.msg}`);
};

/** 10,000 beds (2 areas × 10 floors × 50 rooms × 10 beds), registry devices added to the provider, residents. */
const seed = async (app: TestApp, token: string, caller: Caller) => {
  const actor = { caller, ip: '127.0.0.1', lang: 'en-US' as const };
  const started = performance.now();
  const { db } = app.database;
  const bedRows = Array.from({ length: N }, (_, i) => ({
    area: `Block ${Math.floor(i / 5000) + 1}`,
    floor: `F${(Math.floor(i / 500) % 10) + 1}`,
    room: `R${Math.floor(i / 10) % 50}`,
    bed: String((i % 10) + 1),
  }));
  await db.transaction(async (tx) => {
    const out = await app.services.facility.places.importBeds(actor, { rows: bedRows }, tx);
    if (out.problems.length) throw new Error(`beds: ${JSON.stringify(out.problems[0])}`);
  });
  const admin = await callerOf(app, await app.login(ADMIN_USER, ADMIN_PASSWORD));
  const stock = Array.from({ length: N + IMPORT_ROWS }, (_, i) => ({
    deviceId: `BM-${String(i).padStart(6, '0')}`,
    deviceType: 49,
    batch: 'bench',
  }));
  for (let i = 0; i < stock.length; i += 5000) {
    await db.transaction(async (tx) => {
      const out = await app.services.devices.stock.addMany(admin, stock.slice(i, i + 5000), tx);
      if (out.problems.length) throw new Error(`stock: ${JSON.stringify(out.problems[0])}`);
    });
  }
  await db.transaction(async (tx) => {
    const out = await app.services.devices.devices.addMany(
      caller,
      stock.slice(0, N).map((s, i) => ({ deviceId: s.deviceId, deviceType: 49, name: `Pad ${i}` })),
      // Seeding a bench: nobody listens for the moves' announcements.
      { tx, emit: () => undefined },
    );
    if (out.problems.length) throw new Error(`devices: ${JSON.stringify(out.problems[0])}`);
  });
  await db.transaction(async (tx) => {
    const out = await app.services.residents.createMany(
      caller,
      Array.from({ length: N }, (_, i) => ({
        name: `Resident ${String(i).padStart(5, '0')}`,
        gender: (i % 2) as 0 | 1,
        birthDate: `19${30 + (i % 40)}-0${(i % 9) + 1}-1${i % 9}`,
        medicalHistory: i % 3 ? [] : ['hypertension' as const],
        contacts: [],
        priority: i % 50 === 0,
        caregiverIds: [],
      })),
      tx,
      { ip: '127.0.0.1', confirmSameName: true },
    );
    if (!outcome(out)) throw new Error('residents refused');
  });
  // A fifth of the beds occupied, each with a device: the joins of every list have real rows to find.
  const beds = (await app.call(bunkList, { pageSize: 1000 }, { token })).data?.rows ?? [];
  const residents = (await app.call(residentList, { pageSize: 1000 }, { token })).data?.rows ?? [];
  const occupied = Math.min(beds.length, residents.length, Math.round(N / 5));
  await db.transaction(async (tx) => {
    for (let i = 0; i < occupied; i++) {
      const bed = beds[i];
      const resident = residents[i];
      if (!bed || !resident) break;
      await app.services.facility.occupancy.link(
        actor,
        { bedId: bed.id, residentId: resident.id, deviceCode: `BM-${String(i).padStart(6, '0')}`, confirm: true },
        { tx, emit: () => undefined },
      );
    }
  });
  return (performance.now() - started) / 1000;
};
const outcome = (o: { ok: boolean }) => o.ok;

/** p50 / p95 of one call made ROUNDS times (after two warm-up calls). */
const timeCall = async <C extends CallDef>(app: TestApp, token: string, call: C, input: CallRequest<C>) => {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS + 2; i++) {
    const t0 = performance.now();
    const res = await app.call(call, input, { token });
    const ms = performance.now() - t0;
    must(call.path, res);
    if (i >= 2) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95) };
};

const residentSheet = (rows: number) =>
  workbook([
    [
      'Name',
      'Gender',
      'Date of birth',
      'Height (cm)',
      'Emergency contact',
      'Emergency contact phone',
      'Emergency contact relation',
    ],
    ...Array.from({ length: rows }, (_, i) => [
      `Imported ${String(i).padStart(5, '0')}`,
      i % 2 ? 'female' : 'male',
      `1945-0${(i % 9) + 1}-0${(i % 9) + 1}`,
      150 + (i % 40),
      `Family ${i}`,
      `139${String(i).padStart(8, '0')}`,
      'child',
    ]),
  ]);
const deviceSheet = (rows: number) =>
  workbook([
    ['Device ID', 'Device type (model or code)', 'Device name'],
    ...Array.from({ length: rows }, (_, i) => [
      `BM-${String(N + i).padStart(6, '0')}`,
      'BM8701-2',
      `Imported pad ${i}`,
    ]),
  ]);

const caregiverSheet = (rows: number) =>
  workbook([
    ['Name', 'Phone', 'Level'],
    ...Array.from({ length: rows }, (_, i) => [`Carer ${i}`, `136${String(i).padStart(8, '0')}`, 'normal']),
  ]);

const measure = async (target: DbTarget): Promise<Figures> => {
  const figures: Figures = new Map();
  const app = await createTestApp(target);
  try {
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const home = await makeProvider(app, admin, 'Bench Home');
    const token = await app.login(home.userName, home.password);
    const caller = await callerOf(app, token);
    figures.set(`seed ${N} beds, devices, residents (s)`, await seed(app, token, caller));

    const lists: [string, () => Promise<{ p50: number; p95: number }>][] = [
      ['userList page 1', () => timeCall(app, token, residentList, { pageSize: 10 })],
      ['userList page 500', () => timeCall(app, token, residentList, { pageSize: 10, pageNum: Math.max(1, N / 20) })],
      ['userList keyword', () => timeCall(app, token, residentList, { pageSize: 10, keyWord: '0042' })],
      [
        'userList checked in, age 60-90',
        () => timeCall(app, token, residentList, { pageSize: 10, state: 'checkedIn', ageMin: 60, ageMax: 90 }),
      ],
      ['userSummary', () => timeCall(app, token, residentSummary, {})],
      ['getDeviceList page 1', () => timeCall(app, token, deviceCalls.getDeviceList, { pageSize: 10 })],
      [
        'getDeviceList keyword',
        () => timeCall(app, token, deviceCalls.getDeviceList, { pageSize: 10, keyWord: 'BM-0042' }),
      ],
      ['getDeviceSummary', () => timeCall(app, token, deviceCalls.getDeviceSummary, {})],
      ['bunkList page 1', () => timeCall(app, token, bunkList, { pageSize: 10 })],
      ['bunkList free beds', () => timeCall(app, token, bunkList, { pageSize: 10, free: true })],
      ['bunkSummary', () => timeCall(app, token, bunkSummary, {})],
    ];
    for (const [name, run] of lists) {
      const { p50, p95 } = await run();
      figures.set(`${name} p50 (ms)`, p50);
      figures.set(`${name} p95 (ms)`, p95);
    }

    let t0 = performance.now();
    const residents = await app.call(residentBatchAdd, uploadForm(residentSheet(IMPORT_ROWS), 'residents.xlsx'), {
      token,
    });
    must('resident import', residents);
    figures.set(`import ${IMPORT_ROWS} residents .xlsx (s)`, (performance.now() - t0) / 1000);
    t0 = performance.now();
    const devices = await app.call(deviceBatchAdd, uploadForm(deviceSheet(IMPORT_ROWS), 'devices.xlsx'), { token });
    must('device import', devices);
    figures.set(`import ${IMPORT_ROWS} devices .xlsx (s)`, (performance.now() - t0) / 1000);
    // Caregivers get an app account each (argon2id password hash): a tenth of the rows.
    const carers = Math.round(IMPORT_ROWS / 10);
    t0 = performance.now();
    const caregivers = await app.call(nursingBatchAdd, uploadForm(caregiverSheet(carers), 'caregivers.xlsx'), {
      token,
    });
    must('caregiver import', caregivers);
    figures.set(`import ${carers} caregivers .xlsx (s)`, (performance.now() - t0) / 1000);
  } finally {
    await app.close();
  }
  return figures;
};

const targets: DbTarget[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const results = new Map<DbTarget, Figures>();
for (const target of targets) {
  console.log(`measuring ${target} …`);
  results.set(target, await measure(target));
}
const lite = results.get('pglite') ?? new Map<string, number>();
const pg = results.get('postgres');
const fmt = (v: number | undefined) => (v === undefined ? '—' : v < 10 ? v.toFixed(2) : v.toFixed(1));
console.log(`\n${N} residents, ${N} devices, ${N} beds; ${ROUNDS} samples per list call\n`);
console.log(`${'metric'.padEnd(44)}${'PGlite'.padStart(10)}${'PostgreSQL'.padStart(12)}${'PG/PGlite'.padStart(11)}`);
for (const [metric, value] of lite) {
  const other = pg?.get(metric);
  const ratio = other === undefined ? '—' : (other / value).toFixed(2);
  console.log(`${metric.padEnd(44)}${fmt(value).padStart(10)}${fmt(other).padStart(12)}${ratio.padStart(11)}`);
}
if (!pg) console.log('\nPostgreSQL column empty: set DATABASE_URL to measure it in the same run.');
