/**
 * The database side of bench/alarm-latency.ts's reports phase, run as a child process on the
 * bench's DATA_DIR while no server holds it (PGlite has one owner): the bench forks it with one
 * JSON request as its argument and reads one answer (IPC).
 *
 * seed: the provisioned sleep monitors go into beds of checked-in residents, each with sleep
 *   settings and a stored night up to now (minutes with beat intervals and their seconds, as
 *   ingest stores them) that starts where their sleep time puts the night's window; the wake
 *   time ends it only late in the day, and the bench moves it to the moment it chooses. Then the
 *   night already ended gets its reports from the scheduler as it is, as a care home that ran
 *   yesterday has them: the measured night is then an ordinary one, not a resident's first.
 * tally: what the scheduler made of that night: states, the first claim and the last report.
 */
import { and, count, eq, inArray, max, min, sql } from 'drizzle-orm';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../../apps/server/src/clock.ts';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import {
  areas,
  beds,
  deviceMinutes,
  deviceSeconds,
  devices,
  residents,
  residentSleepSettings,
  rooms,
  sleepReports,
} from '../../apps/server/src/db/schema.ts';
import { emptySeconds, writeSecond } from '../../apps/server/src/modules/gateway/index.ts';
import { AnalysisPool } from '../../apps/server/src/modules/reports/analysis-pool.ts';
import { BEFORE_SLEEP_MINUTES, latestEndedNight } from '../../apps/server/src/modules/reports/night-window.ts';
import { ReportProducer } from '../../apps/server/src/modules/reports/report-producer.ts';
import { ReportScheduler } from '../../apps/server/src/modules/reports/report-scheduler.ts';

export interface SeedRequest {
  command: 'seed';
  dataDir: string;
  /** The sleep monitors to put into beds, one resident each. */
  deviceIds: string[];
  /** Minutes of each stored night, ending at the minute the seed starts. */
  nightMinutes: number;
  /** The server's TIME_ZONE. */
  timeZone: string;
  tag: string;
}

export interface TallyRequest {
  command: 'tally';
  dataDir: string;
  night: string;
  residentIds: number[];
}

export interface Seeded {
  type: 'seeded';
  residentIds: number[];
  /** Every resident's usual sleep time (HH:mm, UTC): their night starts at the first stored minute. */
  sleepTime: string;
  /** The first stored minute, ms since the epoch. */
  storedFrom: number;
  storedMinutes: number;
  storeSeconds: number;
  /** The reports made at the end of seeding: the nights that had ended then. */
  previousNight: {
    night: string;
    /** Minutes stored in it (none when the stored night reaches into it). */
    heardMinutes: number;
    due: number;
    made: number;
    held: number;
    failed: number;
    seconds: number;
  };
}

export interface Tally {
  type: 'tally';
  ready: number;
  failed: number;
  computing: number;
  /** Ready reports the analysis found too little in. */
  insufficient: number;
  /** ms since the epoch; null without reports. */
  firstClaim: number | null;
  lastComputed: number | null;
  /** Claim → computed of each ready report (ms), ascending. */
  perReportMs: number[];
}

const MINUTE = 60_000;
const LATEST_WAKE = '23:49';
const HEARD_MINUTES = 60;
const BEDS_PER_ROOM = 4;
const ROOMS_PER_FLOOR = 25;

const hhmm = (at: Date) => at.toISOString().slice(11, 16);
const chunks = <T>(xs: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

/** A resident's stored night: in bed from 30 minutes after its start to its end (still in bed at
 * the wake time, the live stream takes over), asleep 20 minutes after lying down, a slow swing of
 * the heart rate and beat-to-beat variation that differ per resident. */
function minutesOf(resident: number, from: number, count: number) {
  const phase = resident * 0.37;
  return Array.from({ length: count }, (_, m) => {
    const seconds = emptySeconds();
    const rri: number[] = [];
    const inBed = m >= 30;
    const asleep = m >= 50;
    for (let s = 0; s < 60; s++) {
      const t = m * 60 + s;
      const hr = inBed ? 58 + 6 * Math.sin(t / 1100 + phase) + 2 * Math.sin(t / 37) : 0;
      writeSecond(seconds, s, { hr, rr: inBed ? 14 : 0, move: t % 1400 < 3 ? 35 : 1, inBed, asleep });
      if (hr) rri.push(Math.round(60_000 / hr + 25 * Math.sin(t * 2.1 + phase)));
    }
    return { minute: new Date(from + m * MINUTE), rri, seconds, inBed: inBed ? 60 : 0, asleep: asleep ? 60 : 0 };
  });
}

async function seed(db: Db, request: SeedRequest): Promise<Seeded> {
  const monitors = await db
    .select({ id: devices.id, deviceId: devices.deviceId, providerId: devices.providerId })
    .from(devices)
    .where(inArray(devices.deviceId, request.deviceIds));
  if (monitors.length !== request.deviceIds.length)
    throw new Error(`${monitors.length} of ${request.deviceIds.length} sleep monitors are registered`);
  const byDeviceId = new Map(monitors.map((m) => [m.deviceId, m]));
  const providerId = monitors[0]?.providerId ?? 0;
  const storedTo = Math.floor(Date.now() / MINUTE) * MINUTE;
  const storedFrom = storedTo - request.nightMinutes * MINUTE;

  const [building] = await db
    .insert(areas)
    .values({ providerId, name: `Bench reports ${request.tag}` })
    .returning({ id: areas.id });
  const floorCount = Math.ceil(request.deviceIds.length / (BEDS_PER_ROOM * ROOMS_PER_FLOOR));
  const floors = await db
    .insert(areas)
    .values(Array.from({ length: floorCount }, (_, f) => ({ providerId, parentId: building?.id, name: `F${f + 1}` })))
    .returning({ id: areas.id });
  const roomRows = await db
    .insert(rooms)
    .values(
      Array.from({ length: Math.ceil(request.deviceIds.length / BEDS_PER_ROOM) }, (_, r) => {
        const floor = Math.floor(r / ROOMS_PER_FLOOR);
        return {
          providerId,
          floorId: floors[floor]?.id ?? 0,
          name: `${floor + 1}${String((r % ROOMS_PER_FLOOR) + 1).padStart(2, '0')}`,
        };
      }),
    )
    .returning({ id: rooms.id, name: rooms.name });
  const admittedAt = new Date(storedFrom - 30 * 86_400_000);
  const residentRows: { id: number }[] = [];
  for (const part of chunks(request.deviceIds, 500)) {
    const offset = residentRows.length;
    residentRows.push(
      ...(await db
        .insert(residents)
        .values(
          part.map((_, i) => ({
            providerId,
            name: `Resident ${String(offset + i + 1).padStart(4, '0')}`,
            gender: (offset + i) % 2,
            birthDate: `19${30 + ((offset + i) % 20)}-0${1 + ((offset + i) % 9)}-15`,
            state: 'checkedIn',
            roomId: roomRows[Math.floor((offset + i) / BEDS_PER_ROOM)]?.id ?? 0,
            admittedAt,
          })),
        )
        .returning({ id: residents.id })),
    );
  }
  const residentIds = residentRows.map((r) => r.id);
  const bedIds: number[] = [];
  for (const part of chunks(
    request.deviceIds.map((deviceId, i) => ({ deviceId, i })),
    500,
  )) {
    const rows = await db
      .insert(beds)
      .values(
        part.map(({ deviceId, i }) => {
          const room = roomRows[Math.floor(i / BEDS_PER_ROOM)];
          return {
            providerId,
            roomId: room?.id ?? 0,
            name: `${room?.name ?? ''}-${(i % BEDS_PER_ROOM) + 1}`,
            mattress: 'sponge',
            deviceId: byDeviceId.get(deviceId)?.id ?? null,
            residentId: residentIds[i] ?? null,
          };
        }),
      )
      .returning({ id: beds.id });
    bedIds.push(...rows.map((r) => r.id));
  }

  // The night as ingest stores it: one minute row and one seconds row per monitor and minute.
  const store = async (i: number, from: number, count: number) => {
    const deviceId = request.deviceIds[i] ?? '';
    for (const part of chunks(minutesOf(i + 1, from, count), 320)) {
      await db.insert(deviceMinutes).values(
        part.map((m) => ({
          deviceId,
          minute: m.minute,
          providerId,
          bedId: bedIds[i] ?? null,
          residentId: residentIds[i] ?? null,
          samples: 60,
          hrSamples: m.inBed,
          rrSamples: m.inBed,
          inBedSeconds: m.inBed,
          asleepSeconds: m.asleep,
          moveAvg: 1,
          moveMax: 35,
          rri: m.rri.length ? m.rri : null,
        })),
      );
      await db
        .insert(deviceSeconds)
        .values(part.map((m) => ({ deviceId, minute: m.minute, providerId, seconds: m.seconds })));
    }
    return count;
  };
  const storing = performance.now();
  let storedMinutes = 0;
  for (let i = 0; i < request.deviceIds.length; i++) storedMinutes += await store(i, storedFrom, request.nightMinutes);
  const storeSeconds = (performance.now() - storing) / 1000;

  // Settings as the home had them: the usual sleep time puts the night's window start at the
  // first stored minute; the wake time is the day's last possible (23:49, the night ending at
  // 23:59), so no night ends before the bench moves the wake time to the moment it chooses.
  const sleepTime = hhmm(new Date(storedFrom + BEFORE_SLEEP_MINUTES * MINUTE));
  const wakeTime = sleepTime === LATEST_WAKE ? '23:48' : LATEST_WAKE;
  for (const part of chunks(residentIds, 500))
    await db.insert(residentSleepSettings).values(
      part.map((residentId) => ({
        residentId,
        providerId,
        leaveBedMode: 'allDay',
        sleepTime,
        wakeTime,
        sensitivity: 'medium',
        mattress: 'sponge',
      })),
    );

  // The latest ended night's reports, by the scheduler and producer the server runs. A first
  // report waits for a night the monitor sent something in: the start of that night is
  // stored too (an hour), unless the stored night already reaches into it.
  const making = performance.now();
  const previous = latestEndedNight(new Date(), sleepTime, wakeTime, request.timeZone);
  let heardMinutes = 0;
  if (previous.start.getTime() + HEARD_MINUTES * MINUTE <= storedFrom)
    for (let i = 0; i < request.deviceIds.length; i++)
      heardMinutes += await store(i, previous.start.getTime(), HEARD_MINUTES);
  const pool = new AnalysisPool({ size: 1 });
  const scheduler = new ReportScheduler(db, systemClock, request.timeZone, new ReportProducer(db, systemClock, pool));
  const made = await scheduler.tick();
  await pool.stop();
  return {
    type: 'seeded',
    residentIds,
    sleepTime,
    storedFrom,
    storedMinutes,
    storeSeconds,
    previousNight: { night: previous.night, heardMinutes, ...made, seconds: (performance.now() - making) / 1000 },
  };
}

async function tally(db: Db, request: TallyRequest): Promise<Tally> {
  const ofNight = and(inArray(sleepReports.residentId, request.residentIds), eq(sleepReports.night, request.night));
  const states = await db
    .select({ state: sleepReports.state, n: count() })
    .from(sleepReports)
    .where(ofNight)
    .groupBy(sleepReports.state);
  const n = (state: string) => states.find((s) => s.state === state)?.n ?? 0;
  const [span] = await db
    .select({ firstClaim: min(sleepReports.claimedAt), lastComputed: max(sleepReports.computedAt) })
    .from(sleepReports)
    .where(ofNight);
  const ready = await db
    .select({
      claimedAt: sleepReports.claimedAt,
      computedAt: sleepReports.computedAt,
      insufficient: sql<string | null>`${sleepReports.report}->'report'->>'insufficient'`,
    })
    .from(sleepReports)
    .where(and(ofNight, eq(sleepReports.state, 'ready')));
  return {
    type: 'tally',
    ready: n('ready'),
    failed: n('failed'),
    computing: n('computing'),
    insufficient: ready.filter((r) => r.insufficient !== null).length,
    firstClaim: span?.firstClaim?.getTime() ?? null,
    lastComputed: span?.lastComputed?.getTime() ?? null,
    perReportMs: ready
      .map((r) => (r.computedAt ? r.computedAt.getTime() - r.claimedAt.getTime() : Number.NaN))
      .sort((a, b) => a - b),
  };
}

const request = JSON.parse(process.argv[2] ?? '{}') as SeedRequest | TallyRequest;
const database = await openDatabase({ dataDir: path.join(request.dataDir, 'pglite') });
try {
  const answer = request.command === 'seed' ? await seed(database.db, request) : await tally(database.db, request);
  process.send?.(answer);
} finally {
  // Closed before exiting: the server the bench starts next opens the same files.
  await database.close();
  process.disconnect?.();
}
