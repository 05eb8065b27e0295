/**
 * Alarm latency (issue 10's "Done when"). Prints, in one run on this machine:
 *
 * 1. The floor: a bare aedes broker (bench/ingest/floor-broker.ts, the broker Vigil embeds) under
 *    BENCH_DEVICES sleep monitors streaming telemetry at 1 Hz (the ingest bench's generator), and
 *    its own publish → subscribe latency: a QoS 1 publish on an event topic to one subscriber.
 * 2. Vigil embedded (a real server process, PGlite, the embedded broker) under the same load, with
 *    BENCH_CONSOLES consoles logged in on /websocket: BENCH_BADGES badges each call SOS in turn
 *    (QoS 1) and release it; each alarm's device publish → /alertNotify frame on every console,
 *    p50/p99 over all (alarm, console) pairs, and the first console's, beside the floor's p99.
 * 3. Fan-out: BENCH_FANOUT consoles (500) logged in; alarms fanned out to all of them: publish →
 *    frame p50/p99 over all pairs, and the spread (first console → last console) p99.
 * 4. The targets with PASS/MISS: alarm p99 ≤ 100 ms and ≤ 5 × the floor's p99; fan-out p99 ≤ 50 ms
 *    (the spread: what fanning out to 500 adds).
 * 5. Alarms while the daily sleep reports are made (issue 11): a new server on a database where
 *    BENCH_REPORTS of the sleep monitors are in checked-in residents' beds, each with sleep
 *    settings and a stored night (BENCH_NIGHT_MINUTES of minutes with seconds and beat intervals;
 *    seeded by bench/alarm-latency/report-nights.ts); the scheduler looks every
 *    BENCH_REPORT_CHECK_SECONDS. Same devices streaming, BENCH_CONSOLES consoles; then the
 *    residents' wake time is saved so that the night ends BENCH_REPORTS_BASELINE_S or a little
 *    more later (on the minute). Alarms as in 2.: a baseline until the window ends, then on until
 *    the report list counts all the night's reports. It prints the reports made (ready, failed,
 *    insufficient), window end → first claim → last report, per-report time, the server's CPU,
 *    alarm p50/p90/p99/max and the share over 100 ms for the baseline and for the alarms sent
 *    between the first claim and the last report (read from the reports' rows afterwards), and
 *    PASS/MISS for "p99 during ≤ 1.2 × baseline p99" and "BENCH_REPORTS reports ≤ 60 s" (first
 *    claim → last report). With BENCH_PROFILE: a main-thread CPU profile of each part.
 *
 * Run: npm run bench:alarms          (about 13 min on a quiet machine: 6 for 1.–4., 7 for 5.)
 * Profile: BENCH_PROFILE=<dir> npm run bench:alarms (a CPU profile of the Vigil server over the
 *   measured alarms of 2., and where its time went; in 5., one of the baseline and one of the reports)
 * Quick: BENCH_DEVICES=500 BENCH_ALARMS=100 BENCH_REPORTS=100 npm run bench:alarms
 * Reports phase alone: BENCH_ONLY=reports npm run bench:alarms
 * Options: BENCH_DEVICES=5000, BENCH_CONSOLES=100, BENCH_FANOUT=500, BENCH_BADGES=50,
 *   BENCH_ALARMS=400 (alarms measured in 2.), BENCH_FANOUT_ALARMS=40, BENCH_GAP_MS=100 (between alarms);
 *   5.: BENCH_REPORTS=1000 (0 skips it; at most BENCH_DEVICES), BENCH_REPORTS_GAP_MS (= BENCH_GAP_MS),
 *   BENCH_REPORTS_BASELINE_S=60, BENCH_NIGHT_MINUTES=630, BENCH_REPORT_CHECK_SECONDS=5 (the server's
 *   REPORT_CHECK_SECONDS; its TIME_ZONE is UTC).
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connectAsync } from 'mqtt';
import { AFTER_WAKE_MINUTES, nightWindow } from '../apps/server/src/modules/reports/night-window.ts';
import { uploadForm, workbook } from '../apps/server/src/modules/spreadsheet/sheet-test-support.ts';
import { spawnServer, type SpawnedServer } from '../apps/server/src/test/spawned-server.ts';
import type { SeedRequest, Seeded, Tally, TallyRequest } from './alarm-latency/report-nights.ts';
import { connectBadges, fire, openConsoles, type Console, type Fired } from './alarm-latency/alarm-probe.ts';
import { forkScript, Load, nextMessage } from './ingest/load.ts';
import { printProfile, takeProfile } from './ingest/profile-summary.ts';
import { cpuPercent, fmt, freePort, procSample, quantile, sleep, table } from './ingest/support.ts';

const option = (name: string, fallback: number): number => {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isFinite(value) || value < 1) throw new Error(`${name} must be a positive number`);
  return Math.round(value);
};
const DEVICES = option('BENCH_DEVICES', 5000);
const CONSOLES = option('BENCH_CONSOLES', 100);
const FANOUT = option('BENCH_FANOUT', 500);
const BADGES = option('BENCH_BADGES', 50);
const ALARMS = option('BENCH_ALARMS', 400);
const FANOUT_ALARMS = option('BENCH_FANOUT_ALARMS', 40);
const GAP_MS = option('BENCH_GAP_MS', 100);
const FLOOR_SAMPLES = option('BENCH_FLOOR_SAMPLES', 400);
/** A count that may be 0 (the phase skipped). */
const countOption = (name: string, fallback: number): number => {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, 0 or more`);
  return value;
};
const REPORTS = countOption('BENCH_REPORTS', 1000);
const REPORTS_BASELINE_S = option('BENCH_REPORTS_BASELINE_S', 60);
const REPORTS_GAP_MS = option('BENCH_REPORTS_GAP_MS', GAP_MS);
const NIGHT_MINUTES = option('BENCH_NIGHT_MINUTES', 630);
const REPORT_CHECK_SECONDS = option('BENCH_REPORT_CHECK_SECONDS', 5);
const ONLY_REPORTS = process.env.BENCH_ONLY?.trim() === 'reports';
if (REPORTS > DEVICES)
  throw new Error('BENCH_REPORTS must not exceed BENCH_DEVICES: each report needs a sleep monitor');
if (ONLY_REPORTS && !REPORTS) throw new Error('BENCH_ONLY=reports needs BENCH_REPORTS > 0');
const PROFILE_DIR = process.env.BENCH_PROFILE?.trim() ? path.resolve(process.env.BENCH_PROFILE.trim()) : undefined;

const TAG = randomBytes(2).toString('hex').toUpperCase();
const SLEEP_IDS = Array.from({ length: DEVICES }, (_, i) => `AL${TAG}-S${String(i + 1).padStart(5, '0')}`);
const BADGE_IDS = Array.from({ length: BADGES }, (_, i) => `AL${TAG}-B${String(i + 1).padStart(3, '0')}`);
const secretOf = (id: string) => `bench-secret-${id.toLowerCase()}`;
const ADMIN_PASSWORD = 'Bench#Alarm2026';
const HOME_PASSWORD = 'Care#Home2026';

const out = (line = '') => process.stdout.write(`${line}\n`);
const heading = (title: string) => out(`\n== ${title} ${'='.repeat(Math.max(0, 96 - title.length))}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;

const cleanups: (() => Promise<void> | void)[] = [];
const cleanup = async () => {
  for (const run of cleanups.splice(0).reverse()) await Promise.resolve(run()).catch(() => undefined);
};
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

interface Api {
  status: number;
  msg: string;
  data: unknown;
}
const call = async (base: string, url: string, body: unknown, token?: string): Promise<Api> => {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en-US', ...(token ? { 'x-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Api;
};
const must = <T>(what: string, res: Api): T => {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.msg}`);
  return res.data as T;
};

/** The generator streaming telemetry from every sleep monitor at 1 Hz. */
const stream = async (port: number, secrets: boolean) => {
  const load = await Load.start({
    host: '127.0.0.1',
    port,
    deviceIds: SLEEP_IDS,
    secrets: secrets ? Object.fromEntries(SLEEP_IDS.map((id) => [id, secretOf(id)])) : undefined,
    generators: 1,
    connectRate: 400,
    onChild: (child) => cleanups.push(() => void child.kill('SIGKILL')),
  });
  const connected = await load.connect();
  load.setRate(DEVICES, 0);
  out(`  ${fmt.int(connected.connected)} of ${fmt.int(DEVICES)} sleep monitors streaming at 1 Hz`);
  return load;
};

// --- 1. The floor -----------------------------------------------------------------------------

const floorRun = async (): Promise<{ p50: number; p99: number }> => {
  heading(`floor: bare aedes, ${fmt.int(DEVICES)} devices at 1 Hz, QoS 1 publish → subscribe`);
  const child = forkScript('floor-broker.ts');
  cleanups.push(() => void child.kill('SIGKILL'));
  const { port } = await nextMessage<{ type: 'listening'; port: number }>(child, 'listening', 60_000);
  const load = await stream(port, false);
  await sleep(5_000);
  const url = `mqtt://127.0.0.1:${port}`;
  const subscriber = await connectAsync(url, { clientId: `floor-sub-${TAG}` });
  const publisher = await connectAsync(url, { clientId: `floor-pub-${TAG}` });
  const topic = `vigil/v1/AL${TAG}-PROBE/event`;
  await subscriber.subscribeAsync(topic, { qos: 1 });
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  subscriber.on('message', (_t, payload) => {
    const seq = (JSON.parse(payload.toString()) as { seq: number }).seq;
    const at = sentAt.get(seq);
    if (at !== undefined) latencies.push(performance.now() - at);
  });
  for (let seq = 1; seq <= FLOOR_SAMPLES; seq++) {
    sentAt.set(seq, performance.now());
    void publisher.publishAsync(topic, JSON.stringify({ ts: Date.now() / 1000, seq, event: 'badge_sos' }), { qos: 1 });
    await sleep(GAP_MS / 4);
  }
  await sleep(1_000);
  await subscriber.endAsync();
  await publisher.endAsync();
  await load.stop();
  child.kill('SIGKILL');
  const result = { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
  out(`  ${latencies.length} of ${FLOOR_SAMPLES} delivered: p50 ${ms(result.p50)}, p99 ${ms(result.p99)}`);
  return result;
};

// --- 2. and 3. Vigil ---------------------------------------------------------------------------

/** Registry with secrets, a provider, the sleep monitors added by spreadsheet, the badges one by one. */
const provision = async (base: string) => {
  const admin = must<{ token: string }>(
    'admin login',
    await call(base, '/admin/login', { userName: 'admin', passWord: ADMIN_PASSWORD }),
  );
  const all = [...SLEEP_IDS.map((id) => [id, 49] as const), ...BADGE_IDS.map((id) => [id, 21000] as const)];
  for (let i = 0; i < all.length; i += 1000) {
    const rows = all
      .slice(i, i + 1000)
      .map(([deviceId, deviceType]) => ({ deviceId, deviceType, secret: secretOf(deviceId) }));
    must('stock import', await call(base, '/device/stock/import', { rows }, admin.token));
  }
  const userName = `alarm${TAG.toLowerCase()}`;
  must(
    'insertProvider',
    await call(
      base,
      '/provider/insertProvider',
      { name: `Bench alarms ${TAG}`, userName, passWord: HOME_PASSWORD },
      admin.token,
    ),
  );
  const home = must<{ token: string; key: string }>(
    'home login',
    await call(base, '/admin/login', { userName, passWord: HOME_PASSWORD }),
  );
  for (let i = 0; i < SLEEP_IDS.length; i += 1000) {
    const sheet = workbook([
      ['Device ID', 'Device type (model or code)', 'Device name'],
      ...SLEEP_IDS.slice(i, i + 1000).map((id) => [id, 49, `Bed pad ${id.slice(-5)}`]),
    ]);
    const res = await fetch(`${base}/device/batchAdd1`, {
      method: 'POST',
      headers: { 'x-token': home.token },
      body: uploadForm(sheet, 'devices.xlsx'),
    });
    must('device batchAdd1', (await res.json()) as Api);
  }
  for (const deviceId of BADGE_IDS)
    must('insertDevice', await call(base, '/device/insertDevice', { deviceId, deviceType: 21000 }, home.token));
  return home;
};

const vigilRun = async (floorP99: number) => {
  heading(`Vigil embedded: ${fmt.int(DEVICES)} devices at 1 Hz, ${CONSOLES} consoles, then ${FANOUT}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-alarms-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const server: SpawnedServer = await spawnServer(
    {
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      CONSOLE_DIR: dataDir,
      VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      REDIS_URL: '',
      NATS_URL: '',
      CPU_PROFILE_DIR: PROFILE_DIR ?? '',
      METRICS_TOKEN: METRICS_TOKEN,
    },
    { readyWithinMs: 180_000 },
  );
  cleanups.push(() => server.stop('SIGKILL'));
  const base = `http://127.0.0.1:${httpPort}`;
  const t = performance.now();
  const home = await provision(base);
  out(`  provisioned ${fmt.int(DEVICES + BADGES)} devices in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const load = await stream(mqttPort, true);
  const badges = await connectBadges(mqttPort, BADGE_IDS, secretOf, cleanups);
  const socketUrl = `ws://127.0.0.1:${httpPort}/websocket?lang=en-US`;
  const consoles: Console[] = [];
  await openConsoles(socketUrl, home.key, CONSOLES, consoles, cleanups);
  out(`  ${consoles.length} consoles logged in; warming up 10 s`);
  await fire(badges, Math.min(20, ALARMS), consoles, { gapMs: GAP_MS });
  await sleep(10_000);

  if (PROFILE_DIR) server.child.kill('SIGUSR2');
  const alarms = await fire(badges, ALARMS, consoles, { gapMs: GAP_MS });
  const profile = PROFILE_DIR ? await takeProfile(server.child, PROFILE_DIR) : undefined;
  const row = (label: string, xs: number[]) => [
    label,
    String(xs.length),
    ms(quantile(xs, 0.5)),
    ms(quantile(xs, 0.99)),
    ms(xs.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY)),
  ];
  out(
    table(
      ['publish → /alertNotify', 'samples', 'p50', 'p99', 'max'],
      [row(`all ${CONSOLES} consoles`, alarms.pairs), row('first console', alarms.first)],
    ),
  );
  if (alarms.missing) out(`  MISSING: ${alarms.missing} frames never arrived within 5 s`);
  if (profile) printProfile(profile, out);

  await openConsoles(socketUrl, home.key, FANOUT - consoles.length, consoles, cleanups);
  out(`  ${consoles.length} consoles logged in`);
  const fanout = await fire(badges, FANOUT_ALARMS, consoles, { gapMs: GAP_MS });
  out(
    table(
      ['fan-out to all', 'samples', 'p50', 'p99', 'max'],
      [
        row(`publish → frame, ${consoles.length} consoles`, fanout.pairs),
        row('spread: first → last console', fanout.spread),
      ],
    ),
  );
  if (fanout.missing) out(`  MISSING: ${fanout.missing} frames never arrived within 5 s`);
  out(await memoryOf(base, server.child.pid));
  await load.stop();
  // Gone before the next phase's servers start: this machine's cores are the budget.
  for (const c of consoles) c.close();
  for (const client of badges.values()) client.end(true);
  await server.stop('SIGKILL');
  return {
    alarmP50: quantile(alarms.pairs, 0.5),
    alarmP99: quantile(alarms.pairs, 0.99),
    fanoutP99: quantile(fanout.pairs, 0.99),
    spreadP99: quantile(fanout.spread, 0.99),
    missing: alarms.missing + fanout.missing,
    floorP99,
  };
};

const METRICS_TOKEN = `bench-metrics-${randomBytes(6).toString('hex')}`;

/** The server's memory while the devices stream: the process, the main thread's heap, the database worker's (decision 0047). */
const memoryOf = async (base: string, pid: number | undefined): Promise<string> => {
  const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    .then((r) => (r.ok ? r.text() : ''))
    .catch(() => '');
  const gauge = (name: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(' ')[1] ?? NaN,
    );
  const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 2 ** 20).toFixed(0)} MB` : 'n/a');
  return table(
    ['memory at ' + fmt.int(DEVICES) + ' devices', 'MB'],
    [
      ['process RSS', mb(procSample(pid)?.rssBytes ?? NaN)],
      ['main thread heap used', mb(gauge('vigil_nodejs_heap_size_used_bytes'))],
      ['database worker heap used', mb(gauge('vigil_embedded_database_heap_bytes'))],
      ['database worker WebAssembly memory', mb(gauge('vigil_embedded_database_wasm_bytes'))],
    ],
  );
};

// --- 5. Alarms while the daily sleep reports are made --------------------------------------------

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPORT_TIME_ZONE = 'UTC';
const MINUTE = 60_000;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const clock = (at: number) => new Date(at).toISOString().slice(11, 19);

/** report-nights.ts on the bench's DATA_DIR, once no server holds it; its answer once it has closed the database. */
const onDatabase = async <T extends { type: string }>(request: SeedRequest | TallyRequest, answer: T['type']) => {
  const child = fork(path.join(HERE, 'alarm-latency/report-nights.ts'), [JSON.stringify(request)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const result = await nextMessage<T>(child, answer, 30 * 60_000);
  const code = await exited;
  if (code !== 0) throw new Error(`report-nights.ts ${request.command} exited with ${code}`);
  return result;
};

/**
 * The other half of the reports target: 1,000 beds' daily reports must not push the live
 * alarm p99 up by more than 20 % while they run. A first server is provisioned over HTTP as in 2.
 * and stopped; report-nights.ts then puts REPORTS of the sleep monitors into residents' beds with
 * sleep settings and a stored night up to now (and makes the reports of the nights already ended,
 * as a home running since yesterday has them); the measured server starts on the same database,
 * its scheduler looking every BENCH_REPORT_CHECK_SECONDS. Once devices, badges and consoles run,
 * the residents' wake time is saved (BunkManage's batch call) so that the night ends about
 * BENCH_REPORTS_BASELINE_S later: the end is chosen when the set-up is known to be done, however
 * long a busy machine took. Alarms as in 2.: a baseline until the window ends, then on until the
 * reports are counted; which alarms fell while reports were made is read afterwards from the
 * reports' own claim and completion times.
 */
const reportsRun = async () => {
  heading(
    `alarms while ${fmt.int(REPORTS)} daily sleep reports are made: ${fmt.int(DEVICES)} devices, ${CONSOLES} consoles`,
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-reports-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const env = {
    PORT: String(httpPort),
    MQTT_PORT: String(mqttPort),
    DATA_DIR: dataDir,
    CONSOLE_DIR: dataDir,
    VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    REDIS_URL: '',
    NATS_URL: '',
    CPU_PROFILE_DIR: PROFILE_DIR ?? '',
    TIME_ZONE: REPORT_TIME_ZONE,
  };
  const base = `http://127.0.0.1:${httpPort}`;

  const provisioning = await spawnServer({ ...env, REPORT_CHECK_SECONDS: '900' }, { readyWithinMs: 180_000 });
  cleanups.push(() => provisioning.stop('SIGKILL'));
  let t = performance.now();
  const home = await provision(base);
  await provisioning.stop('SIGTERM');
  if (provisioning.child.exitCode !== 0) throw new Error(`provisioning server: ${provisioning.output()}`);
  out(`  provisioned ${fmt.int(DEVICES + BADGES)} devices in ${seconds(performance.now() - t)}; that server stopped`);

  t = performance.now();
  const seeded = await onDatabase<Seeded>(
    {
      command: 'seed',
      dataDir,
      deviceIds: SLEEP_IDS.slice(0, REPORTS),
      nightMinutes: NIGHT_MINUTES,
      timeZone: REPORT_TIME_ZONE,
      tag: TAG,
    },
    'seeded',
  );
  const previous = seeded.previousNight;
  out(
    `  ${fmt.int(REPORTS)} residents in beds with their sleep monitors; ${fmt.int(seeded.storedMinutes)} minutes ` +
      `stored (with seconds) in ${seconds(seeded.storeSeconds * 1000)}; seeding took ${seconds(performance.now() - t)}`,
  );
  out(
    `  reports of the night already ended (${previous.night}, ${fmt.int(previous.heardMinutes)} minutes more stored ` +
      `in it): ${previous.due} due, ${previous.made} made, ${previous.failed} failed, ${previous.held} held, ` +
      `in ${seconds(previous.seconds * 1000)}`,
  );
  if (previous.made !== REPORTS)
    throw new Error(`night ${previous.night}: ${previous.made} of ${REPORTS} reports made`);

  const server = await spawnServer(
    { ...env, REPORT_CHECK_SECONDS: String(REPORT_CHECK_SECONDS) },
    { readyWithinMs: 180_000 },
  );
  cleanups.push(() => server.stop('SIGKILL'));
  const reportsOf = async (night: string) =>
    must<{ total: number }>(
      'getDailyReportPageList',
      await call(
        base,
        '/report/getDailyReportPageList',
        { pageNum: 1, pageSize: 1, startDate: night, endDate: night },
        home.token,
      ),
    ).total;
  out(
    `  measured server up; the provider's session from provisioning answers ` +
      `(${await reportsOf(previous.night)} reports of ${previous.night})`,
  );
  const load = await stream(mqttPort, true);
  const badges = await connectBadges(mqttPort, BADGE_IDS, secretOf, cleanups);
  const consoles: Console[] = [];
  await openConsoles(`ws://127.0.0.1:${httpPort}/websocket?lang=en-US`, home.key, CONSOLES, consoles, cleanups);
  out(`  ${consoles.length} consoles logged in with the session's key; warming up 10 s`);
  await fire(badges, Math.min(20, ALARMS), consoles, { gapMs: REPORTS_GAP_MS });
  await sleep(10_000);

  // The night's end, chosen now that everything runs: the wake time moved for every resident
  // (as BunkManage saves a batch), the sleep time kept, so the window starts at the stored night.
  const SETTLE_MS = 5_000;
  const windowEnd = Math.ceil((Date.now() + SETTLE_MS + REPORTS_BASELINE_S * 1000) / MINUTE) * MINUTE;
  const waking = windowEnd - AFTER_WAKE_MINUTES * MINUTE;
  const wakeTime = new Date(waking).toISOString().slice(11, 16);
  const window = nightWindow(new Date(waking).toISOString().slice(0, 10), seeded.sleepTime, wakeTime, REPORT_TIME_ZONE);
  if (window.start.getTime() !== seeded.storedFrom || window.end.getTime() !== windowEnd)
    throw new Error(
      `night ${window.night} ${seeded.sleepTime}–${wakeTime}: window ${window.start.toISOString()} → ${window.end.toISOString()}`,
    );
  const { night } = window;
  for (let i = 0; i < seeded.residentIds.length; i += 1000) {
    const userIds = seeded.residentIds.slice(i, i + 1000);
    const sleepSetting = {
      leaveBedMode: 'allDay',
      sleepTime: seeded.sleepTime,
      wakeTime,
      sensitivity: 'medium',
      mattress: 'sponge',
    };
    must('saveSleepSetting', await call(base, '/bunk/saveSleepSetting', { userIds, ...sleepSetting }, home.token));
  }
  out(
    `  night ${night}: sleep ${seeded.sleepTime}, wake now ${wakeTime} (UTC) for all ${fmt.int(REPORTS)}; window ` +
      `${window.start.toISOString()} → ${window.end.toISOString()}`,
  );
  // Nothing else may be made before the window ends: the night before it has all its reports
  // (made in seeding; past midnight UTC, the next look makes them) and this one has none yet.
  const nightBefore = new Date(Date.parse(`${night}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const settled = Date.now() + 120_000;
  while ((await reportsOf(nightBefore)) < REPORTS) {
    if (Date.now() > settled) throw new Error(`night ${nightBefore} still lacks reports after 2 min`);
    await sleep(1_000);
  }
  const early = await reportsOf(night);
  if (early !== 0) throw new Error(`${early} reports of night ${night} before its window ended`);
  await sleep(SETTLE_MS);

  const lead = windowEnd - Date.now();
  if (lead <= 0) throw new Error(`the night ended ${seconds(-lead)} before the baseline began`);
  // The report list is read as a console reads it, every second in both parts alike. Claimed
  // rows count, so the last one or two may still be under way: alarms go on REPORT_TAIL_MS more.
  const REPORT_TAIL_MS = 3_000;
  const giveUpAt = windowEnd + 15 * 60_000;
  let counted = 0;
  let countedAt = Number.POSITIVE_INFINITY;
  const polling = (async () => {
    try {
      while (counted < REPORTS && Date.now() < giveUpAt) {
        await sleep(1_000);
        counted = await reportsOf(night);
      }
    } finally {
      // A failed poll ends the alarms too; awaiting the poll then reports why.
      countedAt = Date.now();
    }
  })();
  out(`  baseline: alarms every ${REPORTS_GAP_MS} ms until the window ends at ${clock(windowEnd)} (${seconds(lead)})`);
  const cpuAtBaseline = procSample(server.child.pid);
  // Profiled, one profile per part: where the main thread's time goes with and without reports.
  if (PROFILE_DIR) server.child.kill('SIGUSR2');
  const baseline = await fire(badges, Infinity, consoles, {
    gapMs: REPORTS_GAP_MS,
    more: () => Date.now() < windowEnd,
  });
  const cpuAtEnd = procSample(server.child.pid);
  const baselineProfile = PROFILE_DIR ? await takeProfile(server.child, PROFILE_DIR) : undefined;
  if (PROFILE_DIR) server.child.kill('SIGUSR2');
  out(`  the night ended: alarms go on until its ${fmt.int(REPORTS)} reports are counted`);
  const during = await fire(badges, Infinity, consoles, {
    gapMs: REPORTS_GAP_MS,
    more: () => Date.now() < countedAt + REPORT_TAIL_MS,
  });
  await polling;
  const cpuAtDone = procSample(server.child.pid);
  const duringProfile = PROFILE_DIR ? await takeProfile(server.child, PROFILE_DIR) : undefined;
  out(`  ${fmt.int(counted)} reports counted ${seconds(countedAt - windowEnd)} after the window's end`);

  await load.stop();
  for (const c of consoles) c.close();
  for (const client of badges.values()) client.end(true);
  await server.stop('SIGTERM');
  const tally = await onDatabase<Tally>({ command: 'tally', dataDir, night, residentIds: seeded.residentIds }, 'tally');
  const firstClaim = tally.firstClaim ?? Number.NaN;
  const lastReport = tally.lastComputed ?? Number.NaN;
  const makingMs = lastReport - firstClaim;
  const perReport = (q: number) =>
    tally.perReportMs[Math.min(tally.perReportMs.length - 1, Math.floor(q * tally.perReportMs.length))] ?? Number.NaN;
  out(
    table(
      [`reports of night ${night}`, 'measured'],
      [
        ['ready / failed / still computing', `${tally.ready} / ${tally.failed} / ${tally.computing} of ${REPORTS}`],
        ['ready but too little data (insufficient)', String(tally.insufficient)],
        [
          `window end → first claimed (the scheduler looks every ${REPORT_CHECK_SECONDS} s)`,
          seconds(firstClaim - windowEnd),
        ],
        ['first claimed → last stored', seconds(makingMs)],
        ['window end → last stored', seconds(lastReport - windowEnd)],
        ['per report, claimed → stored: p50 / p95', `${ms(perReport(0.5))} / ${ms(perReport(0.95))}`],
        [
          'server process CPU (one core = 100%): baseline / window end → counted',
          `${fmt.pct(cpuPercent(cpuAtBaseline, cpuAtEnd))} / ${fmt.pct(cpuPercent(cpuAtEnd, cpuAtDone))}`,
        ],
      ],
    ),
  );

  const within = (a: Fired, from: number, to: number) => a.sentAt >= from && a.sentAt <= to;
  const whileMade = during.alarms.filter((a) => within(a, firstClaim, lastReport));
  const waiting = during.alarms.filter((a) => a.sentAt < firstClaim).length;
  const after = during.alarms.filter((a) => a.sentAt > lastReport).length;
  const pairsOf = (alarms: Fired[]) => alarms.flatMap((a) => a.pairs);
  const missingOf = (alarms: Fired[]) => alarms.reduce((n, a) => n + a.missing, 0);
  const baselinePairs = pairsOf(baseline.alarms);
  const whilePairs = pairsOf(whileMade);
  const over100 = (xs: number[]) => (100 * xs.filter((x) => x > 100).length) / xs.length;
  const row = (label: string, alarms: Fired[], xs: number[]) => [
    label,
    String(alarms.length),
    String(xs.length),
    ms(quantile(xs, 0.5)),
    ms(quantile(xs, 0.9)),
    ms(quantile(xs, 0.99)),
    ms(xs.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY)),
    fmt.pct(over100(xs)),
  ];
  out(
    table(
      [`publish → /alertNotify, ${CONSOLES} consoles`, 'alarms', 'samples', 'p50', 'p90', 'p99', 'max', '> 100 ms'],
      [
        row(`baseline: ${clock(baseline.alarms[0]?.sentAt ?? 0)} → window end`, baseline.alarms, baselinePairs),
        row('during: first claimed → last stored', whileMade, whilePairs),
      ],
    ),
  );
  out(`  not counted: ${waiting} alarms between the window's end and the first claim, ${after} after the last report`);
  const missing = missingOf(baseline.alarms) + missingOf(whileMade);
  if (missing) out(`  MISSING: ${missing} frames never arrived within 5 s`);
  if (whileMade.length < 100)
    out(`  only ${whileMade.length} alarms fell during the reports: lower BENCH_REPORTS_GAP_MS for more samples`);
  if (baselineProfile && duringProfile) {
    out("\nbaseline, on the server's main thread:");
    printProfile(baselineProfile, out);
    out("\nwindow end → reports counted, on the server's main thread (the analyses run in a worker):");
    printProfile(duringProfile, out);
  }

  const p99Base = quantile(baselinePairs, 0.99);
  const p99Load = quantile(whilePairs, 0.99);
  heading('targets: reports');
  out(
    table(
      ['target', 'measured', 'result'],
      [
        [
          'alarm p99 during reports ≤ 1.2 × baseline p99',
          `${ms(p99Load)} = ${(p99Load / p99Base).toFixed(2)} × ${ms(p99Base)} ` +
            `(${whileMade.length} / ${baseline.alarms.length} alarms, ${whilePairs.length} / ${baselinePairs.length} samples)`,
          verdict(p99Load <= 1.2 * p99Base),
        ],
        [
          'alarm p50 during reports / baseline',
          `${ms(quantile(whilePairs, 0.5))} = ${(quantile(whilePairs, 0.5) / quantile(baselinePairs, 0.5)).toFixed(2)} × ${ms(quantile(baselinePairs, 0.5))}`,
          '(reported)',
        ],
        [
          'alarm frames over 100 ms: baseline → during reports',
          `${fmt.pct(over100(baselinePairs))} → ${fmt.pct(over100(whilePairs))}`,
          '(reported)',
        ],
        [
          `${fmt.int(REPORTS)} reports ≤ 60 s (first claimed → last stored)`,
          `${seconds(makingMs)}, ${tally.ready} ready (window end → last: ${seconds(lastReport - windowEnd)})`,
          verdict(tally.ready === REPORTS && makingMs <= 60_000),
        ],
        ['every frame delivered', String(missing), verdict(missing === 0)],
      ],
    ),
  );
};

const main = async () => {
  out(`alarm latency: ${fmt.int(DEVICES)} devices, ${CONSOLES} consoles, fan-out ${FANOUT}, ${os.cpus().length} cores`);
  if (!ONLY_REPORTS) {
    const floor = await floorRun();
    const v = await vigilRun(floor.p99);
    heading('targets');
    out(
      table(
        ['target', 'measured', 'result'],
        [
          ['alarm p99 ≤ 100 ms', ms(v.alarmP99), verdict(v.alarmP99 <= 100)],
          [
            'alarm p99 ≤ 5 × floor p99',
            `${ms(v.alarmP99)} = ${(v.alarmP99 / floor.p99).toFixed(2)} × ${ms(floor.p99)}`,
            verdict(v.alarmP99 <= 5 * floor.p99),
          ],
          [`fan-out to ${FANOUT}: spread p99 ≤ 50 ms`, ms(v.spreadP99), verdict(v.spreadP99 <= 50)],
          [`fan-out to ${FANOUT}: publish → frame p99`, ms(v.fanoutP99), '(reported)'],
          ['every frame delivered', String(v.missing), verdict(v.missing === 0)],
        ],
      ),
    );
  }
  if (REPORTS) await reportsRun();
};

main()
  .catch((error: unknown) => {
    out(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => void cleanup());
