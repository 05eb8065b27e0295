/**
 * Device ingest at care-home scale (issue 9's "Done when"). Prints, in one run:
 *
 * 1. The floor: the broker alone, no Vigil — a bare aedes broker in a child process
 *    (bench/ingest/floor-broker.ts) with one subscriber on `vigil/v1/+/telemetry` counting what
 *    arrives, and Mosquitto (MQTT_URL) the same way when MQTT_URL is set — driven by the same load
 *    generator and ramp as Vigil. Received msg/s, lag (`ts` → received) and PUBACK time per step.
 * 2. Vigil embedded (aedes + PGlite, the default) and Vigil external (Mosquitto + PostgreSQL, only
 *    when MQTT_URL and DATABASE_URL are both set), each a real server process
 *    (`node --import tsx apps/server/src/main.ts`) with BENCH_DEVICES registered sleep monitors
 *    (secrets, a provider, devices added) sending telemetry at 1 Hz (QoS 0, staggered over the
 *    second, increasing seq, ts = now) and one `motion` event a minute each (QoS 1) for
 *    BENCH_SECONDS: messages/s taken (`vigil_device_messages_total`), ingest lag p50/p99 per kind
 *    (`vigil_ingest_lag_seconds` bucket deltas, interpolated like histogram_quantile), event
 *    publish → PUBACK on the generator's side (= stored with the embedded broker; with an external
 *    one the broker answers), backlog, /readyz and the server's event-loop delay every 10 s, the
 *    server's CPU (% of one core, /proc) and RSS, the generator's CPU, and the device-list call's
 *    p95 under load against idle (devices connected, not sending).
 * 3. The highest sustained rate (embedded, and the aedes floor): steps of BENCH_RAMP msg/s, raising
 *    each device's frequency, BENCH_STEP_SECONDS each, stopping at the first failing step. A step
 *    holds when taken ≥ 97% of offered, telemetry lag p99 ≤ 1 s and the backlog does not grow; it
 *    is marked GEN-LIMITED when the generator could not offer the rate (its CPU is printed per step).
 * 4. A summary of the targets with PASS/MISS, each figure next to the floor measured in the same run.
 *
 * The generator (bench/ingest/generator.ts) runs in BENCH_GENERATORS child processes and speaks
 * MQTT 3.1.1 through a minimal codec (bench/ingest/mqtt-wire.ts), not mqtt.js, so that it leaves
 * as much of a 2-core machine as possible to the broker under test. Connections open at
 * BENCH_CONNECT_RATE a second; refusals and failures are counted and printed.
 *
 * Run: npm run bench:ingest                  (floor + embedded + ramp; about 10 min at 5,000 devices)
 *      MQTT_URL=mqtt://127.0.0.1:1883 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:ingest
 *      (adds the Mosquitto floor and Vigil external: a fresh database is created on that server
 *      and dropped afterwards; the server's session at the broker is cleared afterwards; about 20
 *      min in all. Device IDs carry a random run tag, so other traffic on a shared broker is not
 *      counted by the floor, but it does reach Vigil external as unknown devices: see "dropped")
 * Quick, on a busy machine: BENCH_DEVICES=300 BENCH_SECONDS=20 BENCH_STEP_SECONDS=10 npm run bench:ingest
 * Options: BENCH_DEVICES=5000, BENCH_SECONDS=180 (the 1 Hz run), BENCH_STEP_SECONDS=20,
 *   BENCH_RAMP=5000,10000,15000,20000 (msg/s; default 1..4 × BENCH_DEVICES), BENCH_GENERATORS=1 (1–4),
 *   BENCH_CONNECT_RATE=200 (connects/s), BENCH_LIST_CALLS=100 (device-list calls idle and under load),
 *   BENCH_EVENTS_PER_MINUTE=1 (per device), BENCH_WARMUP_SECONDS=15,
 *   BENCH_PHASES=floor,embedded,ramp,external (any subset),
 *   BENCH_PROFILE=<dir> (a CPU profile of each Vigil server over its 1 Hz run, written under <dir>
 *   and summarised: self time by place and by function).
 * Ctrl-C stops every child process and removes the temporary directories and database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connectAsync } from 'mqtt';
import pg from 'pg';
import { uploadForm, workbook } from '../apps/server/src/modules/spreadsheet/sheet-test-support.ts';
import { forkScript, Load, nextMessage, Subscriber, type LoadStats } from './ingest/load.ts';
import { printProfile, takeProfile } from './ingest/profile-summary.ts';
import {
  bucketDelta,
  bucketsOf,
  bucketTotal,
  cpuPercent,
  fmt,
  freePort,
  histogramQuantile,
  parseMetrics,
  procSample,
  quantile,
  sleep,
  sumOf,
  table,
  type Buckets,
  type ProcSample,
} from './ingest/support.ts';

// --- Options ------------------------------------------------------------------------------------

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');

const option = (name: string, fallback: number, min = 1): number => {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, not ${raw}`);
  return n;
};

const DEVICES = Math.round(option('BENCH_DEVICES', 5000));
const SECONDS = option('BENCH_SECONDS', 180);
const STEP_SECONDS = option('BENCH_STEP_SECONDS', 20, 4);
const GENERATORS = Math.min(4, Math.round(option('BENCH_GENERATORS', 1)));
const CONNECT_RATE = option('BENCH_CONNECT_RATE', 200);
const LIST_CALLS = Math.round(option('BENCH_LIST_CALLS', 100));
const EVENTS_PER_MINUTE = option('BENCH_EVENTS_PER_MINUTE', 1, 0);
const WARMUP_SECONDS = option('BENCH_WARMUP_SECONDS', 15, 0);
const RAMP = (process.env.BENCH_RAMP?.trim() ? process.env.BENCH_RAMP.split(',').map(Number) : [1, 2, 3, 4])
  .map((n) => (process.env.BENCH_RAMP?.trim() ? n : n * DEVICES))
  .filter((n) => Number.isFinite(n) && n > 0);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'floor,embedded,ramp,external').split(',').map((p) => p.trim()));
const PROFILE_DIR = process.env.BENCH_PROFILE?.trim() ? path.resolve(process.env.BENCH_PROFILE.trim()) : undefined;
const MQTT_URL = process.env.MQTT_URL?.trim() || undefined;
const DATABASE_URL = process.env.DATABASE_URL?.trim() || undefined;

const SAMPLE_MS = 10_000;
const STEP_SAMPLE_MS = 2_000;
const SETTLE_MS = 4_000;
const TAKEN_MIN = 0.97;
const LAG_P99_MAX = 1;
/** A backlog grows when its lowest value in the last third of a window exceeds that of the first third by this. */
const BACKLOG_GROWTH = 100;
/** Device rate limit of the protocol (docs/device-protocol.md): 50 msg/s a device. */
const DEVICE_RATE_LIMIT = 50;

const TAG = randomBytes(2).toString('hex').toUpperCase();
const DEVICE_PREFIX = `BN${TAG}-`;
const DEVICE_IDS = Array.from({ length: DEVICES }, (_, i) => `${DEVICE_PREFIX}${String(i + 1).padStart(5, '0')}`);
const SECRETS = Object.fromEntries(DEVICE_IDS.map((id) => [id, `bench-secret-${id.toLowerCase()}`]));
const ADMIN_PASSWORD = 'Bench#Ingest26';
const PROVIDER_PASSWORD = 'Care#Home2026';

const out = (line = '') => process.stdout.write(`${line}\n`);
const heading = (title: string) => out(`\n== ${title} ${'='.repeat(Math.max(0, 96 - title.length))}`);

// --- Cleanup ------------------------------------------------------------------------------------

const cleanups = new Map<number, { name: string; run: () => Promise<void> | void }>();
let cleanupId = 0;
/** Registers an undo step; the returned function runs it now (once) and forgets it. */
const onCleanup = (name: string, run: () => Promise<void> | void) => {
  const id = ++cleanupId;
  cleanups.set(id, { name, run });
  return async () => {
    if (!cleanups.delete(id)) return;
    await run();
  };
};
const cleanupAll = async () => {
  for (const [id, { name, run }] of [...cleanups.entries()].reverse()) {
    cleanups.delete(id);
    try {
      await run();
    } catch (error) {
      console.error(`cleanup ${name}: ${String(error)}`);
    }
  }
};
const killOnCleanup = (child: ChildProcess, name: string) =>
  onCleanup(name, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping child processes, removing temporary files…`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

// --- Measuring ----------------------------------------------------------------------------------

/** What the system under test has taken so far. */
interface Reading {
  /** Messages taken: received by the floor's subscriber (telemetry only) or counted by Vigil (all kinds). */
  taken: number;
  /** Telemetry messages taken (the floor's subscriber sees nothing else). */
  takenTelemetry: number;
  telemetryLag: Buckets;
  eventLag: Buckets | undefined;
  eventBacklog: number | undefined;
  minutesBacklog: number | undefined;
  /** Batch writes of the event queue (`vigil_ingest_flush_seconds_count{queue="events"}`). */
  eventWrites?: number;
  /** The server's event-loop delay since the previous scrape (prom-client's default metrics), seconds. */
  loopP99?: number;
  loopMax?: number;
  readyz?: { code: number; backlog: number | undefined };
}

interface Target {
  label: string;
  /** The broker's or server's process, for CPU and RSS. */
  pid: number | undefined;
  /** Vigil counts events as taken; the floor's subscriber sees telemetry only. */
  countsEvents: boolean;
  read(withReadyz?: boolean): Promise<Reading>;
}

interface Snap {
  at: number;
  reading: Reading;
  gen: LoadStats;
  proc: ProcSample | undefined;
  genProcs: (ProcSample | undefined)[];
}

const snap = async (target: Target, load: Load, withReadyz = false): Promise<Snap> => {
  const [reading, gen] = await Promise.all([target.read(withReadyz), load.stats()]);
  return {
    at: performance.now(),
    reading,
    gen,
    proc: procSample(target.pid),
    genProcs: load.pids.map((pid) => procSample(pid)),
  };
};

const genCpu = (a: Snap, b: Snap) => b.genProcs.map((p, i) => cpuPercent(a.genProcs[i], p));

/** Lowest value of the last third above the lowest of the first third by more than BACKLOG_GROWTH. */
const growing = (series: number[]): boolean => {
  if (series.length < 3) return false;
  const third = Math.max(1, Math.floor(series.length / 3));
  return Math.min(...series.slice(-third)) - Math.min(...series.slice(0, third)) > BACKLOG_GROWTH;
};

interface Window {
  seconds: number;
  offered: number;
  offeredTelemetry: number;
  offeredEvents: number;
  taken: number;
  takenTelemetry: number;
  takenShare: number;
  telemetryP50: number;
  telemetryP99: number;
  telemetryCount: number;
  eventP50: number;
  eventP99: number;
  eventCount: number;
  eventWrites: number;
  ackP50: number;
  ackP99: number;
  acks: number;
  eventsUnacked: number;
  serverCpu: number;
  serverRss: number;
  genCpu: number[];
  genSkipped: number;
  genMaxBehindMs: number;
  drops: number;
  backlogGrowing: boolean;
  backlogMax: number;
}

/** Figures of the window between two snaps; `between` are the snaps taken in it (backlog, acks). */
const windowOf = (target: Target, a: Snap, b: Snap, between: Snap[]): Window => {
  const seconds = (b.at - a.at) / 1000;
  const sentT = b.gen.telemetrySent - a.gen.telemetrySent;
  const sentE = b.gen.eventsSent - a.gen.eventsSent;
  const offered = (target.countsEvents ? sentT + sentE : sentT) / seconds;
  const taken = (b.reading.taken - a.reading.taken) / seconds;
  const tLag = bucketDelta(a.reading.telemetryLag, b.reading.telemetryLag);
  const eLag = a.reading.eventLag && b.reading.eventLag ? bucketDelta(a.reading.eventLag, b.reading.eventLag) : [];
  const acks = [...between, b].flatMap((s) => s.gen.eventAckMs);
  const backlog = [a, ...between, b].map((s) => (s.reading.eventBacklog ?? 0) + (s.reading.minutesBacklog ?? 0));
  return {
    seconds,
    offered,
    offeredTelemetry: sentT / seconds,
    offeredEvents: sentE / seconds,
    taken,
    takenTelemetry: (b.reading.takenTelemetry - a.reading.takenTelemetry) / seconds,
    takenShare: offered > 0 ? taken / offered : NaN,
    telemetryP50: histogramQuantile(0.5, tLag),
    telemetryP99: histogramQuantile(0.99, tLag),
    telemetryCount: bucketTotal(tLag),
    eventP50: histogramQuantile(0.5, eLag),
    eventP99: histogramQuantile(0.99, eLag),
    eventCount: bucketTotal(eLag),
    eventWrites: (b.reading.eventWrites ?? NaN) - (a.reading.eventWrites ?? NaN),
    ackP50: quantile(acks, 0.5) / 1000,
    ackP99: quantile(acks, 0.99) / 1000,
    acks: acks.length,
    eventsUnacked: b.gen.eventsUnacked - a.gen.eventsUnacked,
    serverCpu: cpuPercent(a.proc, b.proc),
    serverRss: Math.max(...[a, ...between, b].map((s) => s.proc?.rssBytes ?? NaN)),
    genCpu: genCpu(a, b),
    genSkipped:
      b.gen.skippedLate -
      a.gen.skippedLate +
      (b.gen.skippedBackedUp - a.gen.skippedBackedUp) +
      (b.gen.skippedOffline - a.gen.skippedOffline),
    genMaxBehindMs: Math.max(...[...between, b].map((s) => s.gen.maxBehindMs)),
    drops: b.gen.drops - a.gen.drops,
    backlogGrowing: growing(backlog),
    backlogMax: Math.max(...backlog),
  };
};

// --- Ramp ---------------------------------------------------------------------------------------

interface Step {
  rate: number;
  w: Window;
  genLimited: boolean;
  pass: boolean;
  why: string;
}

const judgeStep = (rate: number, w: Window, withBacklog: boolean): Step => {
  const problems: string[] = [];
  const genLimited = w.offered < rate * TAKEN_MIN || w.genSkipped > 0 || w.genCpu.some((c) => c >= 95);
  if (genLimited) problems.push('generator could not offer the rate');
  if (!(w.takenShare >= TAKEN_MIN)) problems.push(`taken ${fmt.pct(w.takenShare * 100)} of offered`);
  if (!(w.telemetryP99 <= LAG_P99_MAX)) problems.push(`lag p99 ${fmt.ms(w.telemetryP99)}`);
  if (withBacklog && w.backlogGrowing) problems.push('backlog growing');
  return { rate, w, genLimited, pass: problems.length === 0, why: problems.join('; ') };
};

const stepRow = (s: Step, withBacklog: boolean): string[] => [
  fmt.rate(s.rate),
  `${(s.rate / DEVICES).toFixed(1)} Hz`,
  fmt.rate(s.w.offered),
  fmt.rate(s.w.taken),
  fmt.pct(s.w.takenShare * 100),
  `${fmt.ms(s.w.telemetryP50)} / ${fmt.ms(s.w.telemetryP99)}`,
  `${fmt.ms(s.w.ackP50)} / ${fmt.ms(s.w.ackP99)}`,
  withBacklog ? `${fmt.int(s.w.backlogMax)}${s.w.backlogGrowing ? ' growing' : ''}` : 'n/a',
  fmt.pct(s.w.serverCpu),
  s.w.genCpu.map((c) => fmt.pct(c)).join('+'),
  s.pass ? 'ok' : s.genLimited ? 'GEN-LIMITED' : 'FAIL',
];
const STEP_HEAD = [
  'offered',
  'per dev',
  'sent',
  'taken',
  'taken%',
  'lag p50/p99',
  'puback p50/p99',
  'backlog max',
  'broker CPU',
  'gen CPU',
  'step',
];

/** Steps up the rate until a step fails; prints a row per step. */
const ramp = async (target: Target, load: Load, withBacklog: boolean): Promise<Step[]> => {
  const steps: Step[] = [];
  out(`ramp: ${RAMP.map((r) => fmt.rate(r)).join(', ')} × ${STEP_SECONDS} s (broker CPU: % of one core)`);
  const rows: string[][] = [];
  for (const rate of RAMP) {
    if (rate / DEVICES > DEVICE_RATE_LIMIT * 0.9)
      out(`  note: ${(rate / DEVICES).toFixed(0)} msg/s a device is near the protocol's limit of ${DEVICE_RATE_LIMIT}`);
    load.setRate(rate, EVENTS_PER_MINUTE);
    await sleep(SETTLE_MS);
    const a = await snap(target, load);
    const between: Snap[] = [];
    const end = a.at + STEP_SECONDS * 1000;
    while (performance.now() < end - STEP_SAMPLE_MS / 2) {
      await sleep(Math.min(STEP_SAMPLE_MS, end - performance.now()));
      between.push(await snap(target, load));
    }
    const b = between.pop() ?? (await snap(target, load));
    const step = judgeStep(rate, windowOf(target, a, b, between), withBacklog);
    steps.push(step);
    rows.push(stepRow(step, withBacklog));
    out(`  ${fmt.rate(rate)}: ${step.pass ? 'holds' : step.why}`);
    if (!step.pass) break;
  }
  load.setRate(0, 0);
  out(table(STEP_HEAD, rows));
  return steps;
};

const highest = (steps: Step[] | undefined) => {
  const passed = steps?.filter((s) => s.pass) ?? [];
  return passed.at(-1);
};

// --- Floor --------------------------------------------------------------------------------------

interface FloorResult {
  label: string;
  connected: number;
  steps: Step[];
}

const floorRun = async (label: string, host: string, port: number, pid: number | undefined): Promise<FloorResult> => {
  const sub = await Subscriber.open(host, port, `bench-sub-${TAG}-${process.pid}`, DEVICE_PREFIX);
  const closeSub = onCleanup('floor subscriber', () => sub.close());
  const load = await Load.start({
    host,
    port,
    deviceIds: DEVICE_IDS,
    secrets: undefined,
    generators: GENERATORS,
    connectRate: CONNECT_RATE,
    onChild: (child) => killOnCleanup(child, 'generator'),
  });
  const stopLoad = onCleanup('load', () => load.stop());
  const c = await load.connect();
  out(
    `connected ${fmt.int(c.connected)} of ${fmt.int(DEVICES)} devices in ${c.seconds.toFixed(1)} s${failures(c.failures)}`,
  );
  const target: Target = {
    label,
    pid,
    countsEvents: false,
    read: async () => ({
      taken: sub.received,
      takenTelemetry: sub.received,
      telemetryLag: sub.lagBuckets(),
      eventLag: undefined,
      eventBacklog: undefined,
      minutesBacklog: undefined,
    }),
  };
  const steps = await ramp(target, load, false);
  await stopLoad();
  await closeSub();
  return { label, connected: c.connected, steps };
};

const failures = (f: Record<string, number>) => {
  const entries = Object.entries(f);
  return entries.length
    ? ` (connect failures: ${entries.map(([k, v]) => `${k} ${v}`).join(', ')})`
    : ' (no connect failures)';
};

const startAedesFloor = async () => {
  const child = forkScript('floor-broker.ts');
  const stop = killOnCleanup(child, 'floor broker');
  const { port } = await nextMessage<{ type: 'listening'; port: number }>(child, 'listening', 60_000);
  return { port, pid: child.pid, stop };
};

const mosquittoPid = (): number | undefined => {
  for (const file of ['/run/mosquitto/mosquitto.pid', '/var/run/mosquitto/mosquitto.pid']) {
    try {
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (pid > 0) return pid;
    } catch {
      // not readable: no CPU figure for the broker
    }
  }
  return undefined;
};

// --- Vigil --------------------------------------------------------------------------------------

interface Api {
  status: number;
  msg: string;
  data: unknown;
}

const call = async (base: string, url: string, body: unknown, token?: string): Promise<Api> => {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Api;
};

const must = (what: string, res: Api) => {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.msg} ${JSON.stringify(res.data ?? '')}`);
  return res.data;
};

interface Server {
  base: string;
  metricsUrl: string;
  child: ChildProcess;
  log: string[];
  stop: () => Promise<void>;
}

const startServer = async (
  external: { databaseUrl: string; clientId: string; group: string } | undefined,
  profileDir: string | undefined,
) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-ingest-'));
  const removeDir = onCleanup('temp dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const [httpPort, mqttPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      VIGIL_DEMO: '0',
      LOG_LEVEL: 'warn',
      CONSOLE_DIR: dataDir,
      DATABASE_URL: external?.databaseUrl ?? '',
      MQTT_URL: external ? MQTT_URL : '',
      MQTT_CLIENT_ID: external?.clientId ?? '',
      MQTT_SHARE_GROUP: external?.group ?? 'vigil',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: '',
      MQTT_AUTH_TOKEN: '',
      OPERATOR_PUSH_SECRET: '',
      REDIS_URL: '',
      NATS_URL: '',
      TELECOM_API_URL: '',
      CPU_PROFILE_DIR: profileDir ?? '',
      VIGIL_SSO_SECRET: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  let partial = '';
  const collect = (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim() && log.length < 20_000) log.push(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const kill = killOnCleanup(child, 'server');
  const base = `http://127.0.0.1:${httpPort}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    await kill();
    await removeDir();
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log.slice(-30).join('\n')}`);
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`server not ready in 180 s:\n${log.slice(-30).join('\n')}`);
    await sleep(300);
  }
  return {
    base,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    child,
    log,
    stop,
    mqttPort,
  } satisfies Server & {
    mqttPort: number;
  };
};

/** Registry (with secrets for the embedded broker), a provider, every device added to it. */
const provision = async (base: string, withSecrets: boolean) => {
  let t = performance.now();
  const admin = must(
    'admin login',
    await call(base, '/admin/login', { userName: 'admin', passWord: ADMIN_PASSWORD }),
  ) as {
    token: string;
  };
  for (let i = 0; i < DEVICE_IDS.length; i += 1000) {
    const rows = DEVICE_IDS.slice(i, i + 1000).map((deviceId) => ({
      deviceId,
      deviceType: 49,
      ...(withSecrets ? { secret: SECRETS[deviceId] } : {}),
    }));
    must('stock import', await call(base, '/device/stock/import', { rows }, admin.token));
  }
  const importSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const userName = `bench${TAG.toLowerCase()}`;
  must(
    'insertProvider',
    await call(
      base,
      '/provider/insertProvider',
      { name: `Bench ingest ${TAG}`, userName, passWord: PROVIDER_PASSWORD },
      admin.token,
    ),
  );
  const provider = must(
    'provider login',
    await call(base, '/admin/login', { userName, passWord: PROVIDER_PASSWORD }),
  ) as {
    token: string;
  };
  // The console's spreadsheet import (/device/batchAdd1): the checks of insertDevice per row, without 5,000 calls.
  for (let i = 0; i < DEVICE_IDS.length; i += 1000) {
    const sheet = workbook([
      ['Device ID', 'Device type (model or code)', 'Device name'],
      ...DEVICE_IDS.slice(i, i + 1000).map((id) => [id, 49, `Bed pad ${id.slice(-5)}`]),
    ]);
    const res = await fetch(`${base}/device/batchAdd1`, {
      method: 'POST',
      headers: { 'x-token': provider.token },
      body: uploadForm(sheet, 'devices.xlsx'),
    });
    must('device batchAdd1', (await res.json()) as Api);
  }
  const addSeconds = (performance.now() - t) / 1000;
  const list = must('getDeviceList', await listCall(base, provider.token)) as { total: number };
  if (list.total !== DEVICES) throw new Error(`device list holds ${list.total} devices, not ${DEVICES}`);
  return { token: provider.token, importSeconds, addSeconds };
};

const listCall = (base: string, token: string) =>
  call(base, '/device/getDeviceList', { pageNum: 1, pageSize: 20 }, token);

/** Times `count` device-list calls, one at a time, `gapMs` apart. */
const timeList = async (base: string, token: string, count: number, gapMs: number, until?: number) => {
  const ms: number[] = [];
  let errors = 0;
  for (let i = 0; i < count; i++) {
    if (until !== undefined && performance.now() > until) break;
    const t = performance.now();
    const res = await listCall(base, token).catch(() => undefined);
    if (res?.status === 200) ms.push(performance.now() - t);
    else errors++;
    await sleep(gapMs);
  }
  return { ms, errors };
};

const vigilTarget = (label: string, server: Server): Target => ({
  label,
  pid: server.child.pid,
  countsEvents: true,
  read: async (withReadyz = false) => {
    const [text, readyz] = await Promise.all([
      fetch(server.metricsUrl).then((r) => r.text()),
      withReadyz
        ? fetch(`${server.base}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
            async (r) => ({
              code: r.status,
              backlog: ((await r.json()) as { ingest?: { backlog?: number } }).ingest?.backlog,
            }),
            () => ({ code: 0, backlog: undefined }),
          )
        : undefined,
    ]);
    const m = parseMetrics(text);
    return {
      taken: sumOf(m, 'vigil_device_messages_total'),
      takenTelemetry: sumOf(m, 'vigil_device_messages_total', { kind: 'telemetry' }),
      telemetryLag: bucketsOf(m, 'vigil_ingest_lag_seconds', { kind: 'telemetry' }),
      eventLag: bucketsOf(m, 'vigil_ingest_lag_seconds', { kind: 'event' }),
      eventBacklog: sumOf(m, 'vigil_ingest_event_backlog'),
      minutesBacklog: sumOf(m, 'vigil_ingest_backlog'),
      eventWrites: sumOf(m, 'vigil_ingest_flush_seconds_count', { queue: 'events' }),
      loopP99: sumOf(m, 'vigil_nodejs_eventloop_lag_p99_seconds'),
      loopMax: sumOf(m, 'vigil_nodejs_eventloop_lag_max_seconds'),
      ...(readyz ? { readyz } : {}),
    };
  },
});

interface VigilResult {
  label: string;
  connected: number;
  w: Window;
  samples: string[][];
  idleListP95: number;
  loadListP95: number;
  idleListP50: number;
  loadListP50: number;
  listErrors: number;
  readyz503: number;
  dropped: Record<string, number>;
  steps?: Step[];
}

const dropsOf = (m: ReturnType<typeof parseMetrics>) => {
  const outOf: Record<string, number> = {};
  for (const s of m) {
    if (s.name === 'vigil_device_messages_dropped_total' && s.value > 0) outOf[s.labels.reason ?? '?'] = s.value;
    if (s.name === 'vigil_device_connects_refused_total' && s.value > 0)
      outOf[`connect_refused_${s.labels.reason}`] = s.value;
    if (s.name === 'vigil_device_publishes_refused_total' && s.value > 0)
      outOf[`publish_refused_${s.labels.reason}`] = s.value;
    if (s.name === 'vigil_device_duplicates_total' && s.value > 0) outOf.duplicates = s.value;
  }
  return outOf;
};

const vigilRun = async (label: string, external: boolean, withRamp: boolean): Promise<VigilResult> => {
  let dropDb: (() => Promise<void>) | undefined;
  let clearSession: (() => Promise<void>) | undefined;
  let ext: { databaseUrl: string; clientId: string; group: string } | undefined;
  if (external && DATABASE_URL && MQTT_URL) {
    const name = `vigil_bench_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    dropDb = onCleanup('database', async () => {
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
    const url = new URL(DATABASE_URL);
    url.pathname = `/${name}`;
    ext = { databaseUrl: url.toString(), clientId: `vigil-bench-${TAG}-${process.pid}`, group: `bench-${TAG}` };
    const clientId = ext.clientId;
    // The server's session is persistent (24 h): end it at the broker afterwards.
    clearSession = onCleanup('broker session', async () => {
      const c = await connectAsync(MQTT_URL, {
        clientId,
        clean: true,
        protocolVersion: 5,
        properties: { sessionExpiryInterval: 0 },
        reconnectPeriod: 0,
        connectTimeout: 5_000,
      });
      await c.endAsync();
    });
    out(`database ${name} on ${url.host}; server's MQTT client id ${clientId}, share group ${ext.group}`);
  }
  const t = performance.now();
  const profileDir = PROFILE_DIR ? path.join(PROFILE_DIR, label.replace(/[^A-Za-z0-9]+/g, '-')) : undefined;
  const server = await startServer(ext, profileDir);
  out(`server up in ${((performance.now() - t) / 1000).toFixed(1)} s (pid ${server.child.pid})`);
  const prov = await provision(server.base, !external);
  out(
    `registry: ${fmt.int(DEVICES)} devices${external ? '' : ' with secrets (scrypt)'} imported in ${prov.importSeconds.toFixed(1)} s; ` +
      `provider + ${fmt.int(DEVICES)} devices added in ${prov.addSeconds.toFixed(1)} s`,
  );
  const brokerAt = external ? new URL(MQTT_URL ?? '') : undefined;
  const load = await Load.start({
    host: brokerAt ? brokerAt.hostname : '127.0.0.1',
    port: brokerAt ? Number(brokerAt.port || 1883) : server.mqttPort,
    deviceIds: DEVICE_IDS,
    secrets: external ? undefined : SECRETS,
    generators: GENERATORS,
    connectRate: CONNECT_RATE,
    onChild: (child) => killOnCleanup(child, 'generator'),
  });
  const stopLoad = onCleanup('load', () => load.stop());
  const c = await load.connect();
  out(
    `connected ${fmt.int(c.connected)} of ${fmt.int(DEVICES)} devices in ${c.seconds.toFixed(1)} s${failures(c.failures)}`,
  );
  const target = vigilTarget(label, server);

  // Warm-up at 1 Hz (live state rows exist, caches warm), then quiet for the idle device list.
  if (WARMUP_SECONDS > 0) {
    load.setRate(DEVICES, EVENTS_PER_MINUTE);
    await sleep(WARMUP_SECONDS * 1000);
  }
  load.setRate(0, 0);
  await sleep(3_000);
  const idle = await timeList(server.base, prov.token, LIST_CALLS, 50);
  out(
    `device list idle (devices connected, not sending; ${idle.ms.length} calls): ` +
      `p50 ${fmt.msOf(quantile(idle.ms, 0.5))}, p95 ${fmt.msOf(quantile(idle.ms, 0.95))}`,
  );

  // The run: 1 Hz telemetry + events for SECONDS, samples every 10 s, device-list calls spread over it.
  load.setRate(DEVICES, EVENTS_PER_MINUTE);
  await sleep(SETTLE_MS);
  const first = await snap(target, load, true);
  const end = first.at + SECONDS * 1000;
  // The profile covers the measured run only (the server toggles its profiler on SIGUSR2).
  if (profileDir) server.child.kill('SIGUSR2');
  const listGap = Math.max(50, (SECONDS * 1000) / Math.max(1, LIST_CALLS) - 20);
  const listing = sleep(Math.min(2_000, listGap)).then(() =>
    timeList(server.base, prov.token, LIST_CALLS, listGap, end),
  );
  const between: Snap[] = [];
  const rows: string[][] = [];
  const row = (a: Snap, b: Snap) => {
    const secs = (b.at - a.at) / 1000;
    rows.push([
      `${Math.round((b.at - first.at) / 1000)}`,
      fmt.rate((b.reading.taken - a.reading.taken) / secs),
      fmt.int(b.reading.eventBacklog ?? NaN),
      fmt.int(b.reading.minutesBacklog ?? NaN),
      `${b.reading.readyz?.code ?? '–'} ${fmt.int(b.reading.readyz?.backlog ?? NaN)}`,
      `${fmt.ms(b.reading.loopP99 ?? NaN)} / ${fmt.ms(b.reading.loopMax ?? NaN)}`,
      fmt.pct(cpuPercent(a.proc, b.proc)),
      fmt.mb(b.proc?.rssBytes ?? NaN),
      genCpu(a, b)
        .map((x) => fmt.pct(x))
        .join('+'),
    ]);
  };
  row(first, first);
  let previous = first;
  while (performance.now() < end - SAMPLE_MS / 2) {
    await sleep(Math.min(SAMPLE_MS, end - performance.now()));
    const s = await snap(target, load, true);
    row(previous, s);
    between.push(s);
    previous = s;
  }
  const last = between.pop() ?? (await snap(target, load, true));
  const listed = await listing;
  const profile = profileDir ? await takeProfile(server.child, profileDir) : undefined;
  const w = windowOf(target, first, last, between);
  const metricsText = await fetch(server.metricsUrl).then((r) => r.text());
  const dropped = dropsOf(parseMetrics(metricsText));
  const samples = [first, ...between, last];

  out(
    '\nevery 10 s (taken: messages/s taken in the interval; readyz: status and its ingest backlog; ' +
      "event loop: the server's delay since the previous sample):",
  );
  out(
    table(
      [
        't s',
        'taken',
        'event backlog',
        'minutes backlog',
        'readyz',
        'event loop p99 / max',
        'server CPU',
        'server RSS',
        'gen CPU',
      ],
      rows,
    ),
  );
  const idleP95 = quantile(idle.ms, 0.95);
  const loadP95 = quantile(listed.ms, 0.95);
  out(`\n${label}, ${fmt.int(c.connected)} devices at 1 Hz for ${w.seconds.toFixed(0)} s:`);
  out(
    table(
      ['figure', 'value'],
      [
        [
          'offered (sent by the generator)',
          `${fmt.rate(w.offered)} (telemetry ${fmt.rate(w.offeredTelemetry)}, events ${w.offeredEvents.toFixed(1)}/s)`,
        ],
        [
          'taken (vigil_device_messages_total)',
          `${fmt.rate(w.taken)} = ${fmt.pct(w.takenShare * 100)} of offered (telemetry ${fmt.rate(w.takenTelemetry)})`,
        ],
        [
          'ingest lag telemetry p50 / p99',
          `${fmt.ms(w.telemetryP50)} / ${fmt.ms(w.telemetryP99)} (${fmt.int(w.telemetryCount)} messages)`,
        ],
        [
          'ingest lag event p50 / p99',
          `${fmt.ms(w.eventP50)} / ${fmt.ms(w.eventP99)} (${fmt.int(w.eventCount)} events in ${fmt.int(w.eventWrites)} batch writes)`,
        ],
        [
          external ? 'event publish → PUBACK (from the broker, not stored)' : 'event publish → PUBACK (= stored)',
          `${fmt.ms(w.ackP50)} / ${fmt.ms(w.ackP99)} (${fmt.int(w.acks)} acks, ${w.eventsUnacked} never acked)`,
        ],
        ['backlog (events + minutes) max', `${fmt.int(w.backlogMax)}, ${w.backlogGrowing ? 'GROWING' : 'not growing'}`],
        [
          '/readyz (every 10 s)',
          `${samples.filter((x) => x.reading.readyz?.code !== 200).length} of ${samples.length} samples not 200; ` +
            `its ingest backlog ${fmt.int(Math.min(...samples.map((x) => x.reading.readyz?.backlog ?? NaN)))}–` +
            `${fmt.int(Math.max(...samples.map((x) => x.reading.readyz?.backlog ?? NaN)))}`,
        ],
        ['server CPU (of one core) / RSS max', `${fmt.pct(w.serverCpu)} / ${fmt.mb(w.serverRss)}`],
        ['generator CPU', w.genCpu.map((x) => fmt.pct(x)).join(' + ')],
        [
          'generator: messages skipped / connections dropped / max behind schedule',
          `${fmt.int(w.genSkipped)} / ${w.drops} / ${fmt.msOf(w.genMaxBehindMs)}`,
        ],
        ['device list p50 idle → load', `${fmt.msOf(quantile(idle.ms, 0.5))} → ${fmt.msOf(quantile(listed.ms, 0.5))}`],
        [
          'device list p95 idle → load',
          `${fmt.msOf(idleP95)} → ${fmt.msOf(loadP95)} = ${fmt.ratio(loadP95 / idleP95)} (${listed.ms.length} calls under load, ${idle.errors + listed.errors} errors)`,
        ],
        [
          'dropped / refused (server counters, whole run)',
          Object.keys(dropped).length ? JSON.stringify(dropped) : 'none',
        ],
      ],
    ),
  );

  if (profile) printProfile(profile, out);

  let steps: Step[] | undefined;
  if (withRamp) {
    heading(`3. Highest sustained rate: ${label}`);
    steps = await ramp(target, load, true);
  }
  await stopLoad();
  const warnings = server.log.filter((l) => /"level":(40|50|60)/.test(l) || /error|warn/i.test(l));
  await server.stop();
  await clearSession?.().catch((error: unknown) => out(`could not clear the broker session: ${String(error)}`));
  await dropDb?.();
  if (warnings.length) {
    const distinct = new Map<string, number>();
    for (const l of warnings) {
      let key = l.slice(0, 200);
      try {
        const j = JSON.parse(l) as { msg?: string; reason?: string; err?: string };
        key = [j.msg, j.reason, j.err?.slice(0, 120)].filter(Boolean).join(' | ');
      } catch {
        // not JSON: the line itself
      }
      distinct.set(key, (distinct.get(key) ?? 0) + 1);
    }
    out(`\nserver log: ${warnings.length} warning/error lines; distinct:`);
    for (const [k, n] of [...distinct.entries()].slice(0, 12)) out(`  ${n} × ${k}`);
  }
  return {
    label,
    connected: c.connected,
    w,
    samples: rows,
    idleListP95: idleP95,
    loadListP95: loadP95,
    idleListP50: quantile(idle.ms, 0.5),
    loadListP50: quantile(listed.ms, 0.5),
    listErrors: idle.errors + listed.errors,
    readyz503: samples.filter((s) => s.reading.readyz && s.reading.readyz.code !== 200).length,
    dropped,
    ...(steps ? { steps } : {}),
  };
};

// --- Main ---------------------------------------------------------------------------------------

const main = async () => {
  const started = performance.now();
  out(
    `Vigil ingest bench ${new Date().toISOString()} — ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other processes' load shows in every figure)`,
  );
  out(
    `devices ${fmt.int(DEVICES)} (${DEVICE_PREFIX}…), 1 Hz run ${SECONDS} s, ramp ${RAMP.map((r) => fmt.int(r)).join(', ')} msg/s × ${STEP_SECONDS} s, ` +
      `${EVENTS_PER_MINUTE} event/device/min, ${GENERATORS} generator process(es), ${CONNECT_RATE} connects/s`,
  );
  out(
    `MQTT_URL ${MQTT_URL ?? '(unset)'}, DATABASE_URL ${DATABASE_URL ? DATABASE_URL.replace(/\/\/[^@/]*@/, '//…@') : '(unset)'}, phases ${[...PHASES].join(',')}`,
  );
  if (DEVICES < 5000)
    out(`note: ${DEVICES} devices, not 5,000: a scaled-down run; the targets below are judged at this scale`);

  let floorAedes: FloorResult | undefined;
  let floorMosquitto: FloorResult | undefined;
  let embedded: VigilResult | undefined;
  let external: VigilResult | undefined;
  let externalSkipped: string | undefined;

  if (PHASES.has('floor')) {
    heading('1. Floor: aedes alone (child process, no auth) → one subscriber, no Vigil');
    const broker = await startAedesFloor();
    floorAedes = await floorRun('aedes floor', '127.0.0.1', broker.port, broker.pid);
    await broker.stop();
    if (MQTT_URL) {
      const at = new URL(MQTT_URL);
      if (at.protocol !== 'mqtt:' && at.protocol !== 'tcp:') {
        out(`Mosquitto floor skipped: ${at.protocol} is not plain MQTT over TCP`);
      } else {
        heading(
          `1b. Floor: Mosquitto at ${at.host} → one subscriber, no Vigil (a shared broker: its CPU includes others')`,
        );
        floorMosquitto = await floorRun('Mosquitto floor', at.hostname, Number(at.port || 1883), mosquittoPid());
      }
    } else out('\nMosquitto floor skipped: MQTT_URL is not set');
  }

  if (PHASES.has('embedded')) {
    heading('2. Vigil embedded (aedes + PGlite)');
    embedded = await vigilRun('Vigil embedded', false, PHASES.has('ramp'));
  }

  if (PHASES.has('external')) {
    if (!MQTT_URL || !DATABASE_URL) externalSkipped = 'needs both MQTT_URL and DATABASE_URL';
    else if (!/^(mqtt|tcp):/.test(MQTT_URL)) externalSkipped = 'MQTT_URL is not plain mqtt://';
    if (externalSkipped) {
      heading('2b. Vigil external (Mosquitto + PostgreSQL)');
      out(`skipped: ${externalSkipped}`);
    } else {
      heading('2b. Vigil external (Mosquitto + PostgreSQL)');
      external = await vigilRun('Vigil external', true, false);
    }
  }

  summary({ floorAedes, floorMosquitto, embedded, external, externalSkipped });
  out(`\nbench took ${((performance.now() - started) / 60_000).toFixed(1)} min`);
};

const summary = (r: {
  floorAedes: FloorResult | undefined;
  floorMosquitto: FloorResult | undefined;
  embedded: VigilResult | undefined;
  external: VigilResult | undefined;
  externalSkipped: string | undefined;
}) => {
  heading('4. Summary');
  const vigilSteps = r.embedded?.steps;
  if (vigilSteps?.length && r.floorAedes?.steps.length) {
    out('ramp side by side (telemetry taken/s; lag p99; the aedes floor measured in the same run):');
    const rows = RAMP.map((rate) => {
      const v = vigilSteps.find((s) => s.rate === rate);
      const f = r.floorAedes?.steps.find((s) => s.rate === rate);
      const state = (s: Step | undefined) =>
        !s ? 'not run' : s.pass ? 'holds' : s.genLimited ? 'GEN-LIMITED' : 'fails';
      return [
        fmt.rate(rate),
        f ? `${fmt.rate(f.w.takenTelemetry)}, ${fmt.ms(f.w.telemetryP99)}, ${state(f)}` : 'not run',
        v ? `${fmt.rate(v.w.takenTelemetry)}, ${fmt.ms(v.w.telemetryP99)}, ${state(v)}` : 'not run',
        v && f ? fmt.ratio(v.w.takenTelemetry / f.w.takenTelemetry) : '–',
      ];
    });
    out(table(['offered', 'aedes floor', 'Vigil embedded', 'Vigil/floor taken'], rows));
    out();
  }
  const rows: string[][] = [];
  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'PASS' : 'MISS');
  const floorBase = r.floorAedes?.steps[0];
  const e = r.embedded;
  if (e) {
    const ok =
      e.w.telemetryP99 <= LAG_P99_MAX && !e.w.backlogGrowing && e.w.takenShare >= TAKEN_MIN && e.connected === DEVICES;
    rows.push([
      `${fmt.int(DEVICES)} devices at 1 Hz, telemetry lag p99 ≤ 1 s, backlog not growing (embedded)`,
      `taken ${fmt.rate(e.w.taken)} (${fmt.pct(e.w.takenShare * 100)}; telemetry ${fmt.rate(e.w.takenTelemetry)}), lag p99 ${fmt.ms(e.w.telemetryP99)}, backlog ${e.w.backlogGrowing ? 'GROWING' : 'flat'} (max ${fmt.int(e.w.backlogMax)}), ${fmt.int(e.connected)} connected`,
      floorBase
        ? `aedes telemetry ${fmt.rate(floorBase.w.takenTelemetry)} (${STEP_SECONDS} s step), lag p99 ${fmt.ms(floorBase.w.telemetryP99)}`
        : 'no floor',
      floorBase
        ? `telemetry taken ${fmt.ratio(e.w.takenTelemetry / floorBase.w.takenTelemetry)}, p99 ${fmt.ratio(e.w.telemetryP99 / floorBase.w.telemetryP99)}`
        : '–',
      verdict(ok),
    ]);
    const top = highest(e.steps);
    const topFloor = highest(r.floorAedes?.steps);
    const limitedBy = e.steps?.find((s) => !s.pass);
    rows.push([
      'highest sustained rate ≥ 10,000 msg/s (embedded)',
      e.steps
        ? `${top ? fmt.rate(top.rate) : 'none'}${limitedBy ? ` (next step ${fmt.rate(limitedBy.rate)}: ${limitedBy.why})` : ` (every step held: ≥ ${fmt.rate(RAMP.at(-1) ?? 0)})`}`
        : 'ramp not run',
      r.floorAedes
        ? `aedes ${topFloor ? fmt.rate(topFloor.rate) : 'none'}${r.floorAedes.steps.some((s) => !s.pass) ? '' : ' (every step held)'}`
        : 'no floor',
      top && topFloor ? fmt.ratio(top.rate / topFloor.rate) : '–',
      e.steps ? verdict((top?.rate ?? 0) >= 10_000) : 'n/a',
    ]);
    rows.push([
      'device list p95 under load ≤ 2× idle (embedded)',
      `${fmt.msOf(e.loadListP95)} vs idle ${fmt.msOf(e.idleListP95)} = ${fmt.ratio(e.loadListP95 / e.idleListP95)}`,
      '–',
      fmt.ratio(e.loadListP95 / e.idleListP95),
      verdict(e.loadListP95 <= 2 * e.idleListP95),
    ]);
    rows.push([
      'event publish → PUBACK (stored), embedded',
      `p50 ${fmt.ms(e.w.ackP50)}, p99 ${fmt.ms(e.w.ackP99)}`,
      floorBase ? `aedes p50 ${fmt.ms(floorBase.w.ackP50)}, p99 ${fmt.ms(floorBase.w.ackP99)}` : 'no floor',
      floorBase ? `p99 ${fmt.ratio(e.w.ackP99 / floorBase.w.ackP99)}` : '–',
      'info',
    ]);
    rows.push([
      'server CPU / RSS at 1 Hz, embedded',
      `${fmt.pct(e.w.serverCpu)} of a core / ${fmt.mb(e.w.serverRss)}`,
      floorBase ? `aedes ${fmt.pct(floorBase.w.serverCpu)}` : 'no floor',
      floorBase ? fmt.ratio(e.w.serverCpu / floorBase.w.serverCpu) : '–',
      'info',
    ]);
  }
  const x = r.external;
  const mFloor = r.floorMosquitto?.steps[0];
  if (x) {
    const ok = x.w.telemetryP99 <= LAG_P99_MAX && !x.w.backlogGrowing && x.w.takenShare >= TAKEN_MIN;
    rows.push([
      `${fmt.int(DEVICES)} devices at 1 Hz (external: Mosquitto + PostgreSQL)`,
      `taken ${fmt.rate(x.w.taken)} (${fmt.pct(x.w.takenShare * 100)}; telemetry ${fmt.rate(x.w.takenTelemetry)}), lag p99 ${fmt.ms(x.w.telemetryP99)}, backlog ${x.w.backlogGrowing ? 'GROWING' : 'flat'}`,
      mFloor
        ? `Mosquitto telemetry ${fmt.rate(mFloor.w.takenTelemetry)}, lag p99 ${fmt.ms(mFloor.w.telemetryP99)}`
        : 'no floor',
      mFloor
        ? `telemetry taken ${fmt.ratio(x.w.takenTelemetry / mFloor.w.takenTelemetry)}, p99 ${fmt.ratio(x.w.telemetryP99 / mFloor.w.telemetryP99)}`
        : '–',
      verdict(ok),
    ]);
    rows.push([
      'device list p95 under load ≤ 2× idle (external)',
      `${fmt.msOf(x.loadListP95)} vs idle ${fmt.msOf(x.idleListP95)}`,
      '–',
      fmt.ratio(x.loadListP95 / x.idleListP95),
      verdict(x.loadListP95 <= 2 * x.idleListP95),
    ]);
  } else if (r.externalSkipped || !PHASES.has('external')) {
    rows.push(['Vigil external', `skipped: ${r.externalSkipped ?? 'not in BENCH_PHASES'}`, '–', '–', 'n/a']);
  }
  out(table(['target', 'measured', 'floor (same run)', 'ratio', 'verdict'], rows));
  const genHot = [...(r.floorAedes?.steps ?? []), ...(e?.steps ?? [])].filter((s) => s.genLimited);
  if (genHot.length)
    out(
      `\nthe generator limited ${genHot.length} step(s) (${genHot.map((s) => fmt.rate(s.rate)).join(', ')}): ` +
        'try BENCH_GENERATORS=2; on 2 cores the generator and the broker share the machine',
    );
};

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanupAll();
}
process.exit(process.exitCode ?? 0);
