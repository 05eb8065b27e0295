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
 *
 * Run: npm run bench:alarms          (about 6 min)
 * Profile: BENCH_PROFILE=<dir> npm run bench:alarms (a CPU profile of the Vigil server over the
 *   measured alarms of 2., and where its time went)
 * Quick: BENCH_DEVICES=500 BENCH_ALARMS=100 npm run bench:alarms
 * Options: BENCH_DEVICES=5000, BENCH_CONSOLES=100, BENCH_FANOUT=500, BENCH_BADGES=50,
 *   BENCH_ALARMS=400 (alarms measured in 2.), BENCH_FANOUT_ALARMS=40, BENCH_GAP_MS=100 (between alarms).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectAsync, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { uploadForm, workbook } from '../apps/server/src/modules/spreadsheet/sheet-test-support.ts';
import { spawnServer, type SpawnedServer } from '../apps/server/src/test/spawned-server.ts';
import { forkScript, Load, nextMessage } from './ingest/load.ts';
import { printProfile, takeProfile } from './ingest/profile-summary.ts';
import { fmt, freePort, quantile, sleep, table } from './ingest/support.ts';

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

/** A console: a socket logged in with the home's key, timing the frames of the alarms it is told of. */
interface Console {
  ws: WebSocket;
  /** alarm id → when its /alertNotify arrived; and device → last alarm id. */
  frames: Map<string, number>;
}
const openConsoles = async (url: string, key: string, count: number, into: Console[]) => {
  for (let i = 0; i < count; i++) {
    const ws = new WebSocket(url);
    const frames = new Map<string, number>();
    ws.on('message', (data) => {
      const at = performance.now();
      const text = String(data);
      if (!text.includes('"/alertNotify"')) return;
      const frame = JSON.parse(text) as { data: { deviceId: string; count: number } };
      frames.set(frame.data.deviceId, at);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        ws.send(JSON.stringify({ path: '/login', data: { key } }));
        ws.once('message', (d) => (String(d).includes('"code":200') ? resolve() : reject(new Error(String(d)))));
      });
      ws.once('error', reject);
    });
    const beat = setInterval(() => ws.send(JSON.stringify({ path: '/hearBeat', data: { key, msg: 'ping' } })), 10_000);
    cleanups.push(() => {
      clearInterval(beat);
      ws.terminate();
    });
    into.push({ ws, frames });
  }
};

/** Each badge calls SOS then releases it, in turn; every alarm's publish time, by badge. */
const fire = async (badges: Map<string, MqttClient>, count: number, consoles: Console[]) => {
  const pairs: number[] = [];
  const first: number[] = [];
  const spread: number[] = [];
  let missing = 0;
  let seq = Math.floor(Date.now() % 1e9) * 1000;
  const ids = [...badges.keys()];
  for (let n = 0; n < count; n++) {
    const id = ids[n % ids.length] ?? '';
    const client = badges.get(id);
    if (!client) continue;
    for (const c of consoles) c.frames.delete(id);
    const at = performance.now();
    await client.publishAsync(
      `vigil/v1/${id}/event`,
      JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event: 'badge_sos' }),
      {
        qos: 1,
      },
    );
    const deadline = performance.now() + 5_000;
    while (consoles.some((c) => !c.frames.has(id)) && performance.now() < deadline) await sleep(2);
    const got = consoles.flatMap((c) => {
      const t = c.frames.get(id);
      return t === undefined ? [] : [t - at];
    });
    missing += consoles.length - got.length;
    pairs.push(...got);
    if (got.length) {
      first.push(Math.min(...got));
      spread.push(Math.max(...got) - Math.min(...got));
    }
    // Released at the badge: the next call from it raises a new alarm (a repeat is not pushed).
    await client.publishAsync(
      `vigil/v1/${id}/event`,
      JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event: 'device_release' }),
      {
        qos: 1,
      },
    );
    await sleep(GAP_MS);
  }
  return { pairs, first, spread, missing };
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
    },
    { readyWithinMs: 180_000 },
  );
  cleanups.push(() => server.stop('SIGKILL'));
  const base = `http://127.0.0.1:${httpPort}`;
  const t = performance.now();
  const home = await provision(base);
  out(`  provisioned ${fmt.int(DEVICES + BADGES)} devices in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const load = await stream(mqttPort, true);
  const badges = new Map<string, MqttClient>();
  for (const id of BADGE_IDS) {
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: id,
      username: id,
      password: secretOf(id),
    });
    badges.set(id, client);
    cleanups.push(() => void client.end(true));
  }
  const socketUrl = `ws://127.0.0.1:${httpPort}/websocket?lang=en-US`;
  const consoles: Console[] = [];
  await openConsoles(socketUrl, home.key, CONSOLES, consoles);
  out(`  ${consoles.length} consoles logged in; warming up 10 s`);
  await fire(badges, Math.min(20, ALARMS), consoles);
  await sleep(10_000);

  if (PROFILE_DIR) server.child.kill('SIGUSR2');
  const alarms = await fire(badges, ALARMS, consoles);
  const profile = PROFILE_DIR ? await takeProfile(server.child, PROFILE_DIR) : undefined;
  const row = (label: string, xs: number[]) => [
    label,
    String(xs.length),
    ms(quantile(xs, 0.5)),
    ms(quantile(xs, 0.99)),
    ms(Math.max(...xs)),
  ];
  out(
    table(
      ['publish → /alertNotify', 'samples', 'p50', 'p99', 'max'],
      [row(`all ${CONSOLES} consoles`, alarms.pairs), row('first console', alarms.first)],
    ),
  );
  if (alarms.missing) out(`  MISSING: ${alarms.missing} frames never arrived within 5 s`);
  if (profile) printProfile(profile, out);

  await openConsoles(socketUrl, home.key, FANOUT - consoles.length, consoles);
  out(`  ${consoles.length} consoles logged in`);
  const fanout = await fire(badges, FANOUT_ALARMS, consoles);
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
  await load.stop();
  return {
    alarmP50: quantile(alarms.pairs, 0.5),
    alarmP99: quantile(alarms.pairs, 0.99),
    fanoutP99: quantile(fanout.pairs, 0.99),
    spreadP99: quantile(fanout.spread, 0.99),
    missing: alarms.missing + fanout.missing,
    floorP99,
  };
};

const main = async () => {
  out(`alarm latency: ${fmt.int(DEVICES)} devices, ${CONSOLES} consoles, fan-out ${FANOUT}, ${os.cpus().length} cores`);
  const floor = await floorRun();
  const v = await vigilRun(floor.p99);
  heading('targets');
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
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
};

main()
  .catch((error: unknown) => {
    out(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => void cleanup());
