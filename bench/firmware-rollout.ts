/**
 * Firmware rollout (issue 12's bench). Prints, in one run on this machine:
 *
 * 1. Vigil embedded (a real server process, PGlite, the embedded broker, OTA_CHECK_SECONDS=2)
 *    with BENCH_DEVICES simulated sleep monitors (the simulator's fleet, in a process of its own)
 *    streaming at 1 Hz, BENCH_CONSOLES consoles on /websocket and BENCH_BADGES badges.
 * 2. A baseline: for BENCH_BASELINE_S, badges call SOS in turn (BENCH_GAP_MS apart) and each
 *    alarm's device publish → /alertNotify frame is timed on every console.
 * 3. A package of BENCH_PACKAGE_MB is uploaded and released in full, in stages BENCH_STAGES
 *    (default 5,25,100), to every monitor; the devices download it (resuming on a broken
 *    connection), check its MD5, report progress and restart on the new version, a share
 *    BENCH_OTA_FAILURE of them failing while installing (default 0.02). Alarms go on as in 2.
 *    until the rollout is done (or paused, or BENCH_MAX_S passes).
 * 4. Time to complete, the stages' times, devices upgraded and failed, bytes served and the
 *    download throughput, the server's RSS and CPU before and during, and alarm p50/p90/p99
 *    baseline vs during with PASS/MISS for "p99 during ≤ 1.2 × baseline p99".
 *
 * Run: npm run bench:firmware        (about 6 min on a quiet machine)
 * Quick: BENCH_DEVICES=200 BENCH_BASELINE_S=20 npm run bench:firmware
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { zipSync } from 'fflate';
import { planFleet, secretsFor } from '../apps/simulator/src/index.ts';
import { provisionFleet } from '../apps/simulator/src/provision.ts';
import { spawnServer, type SpawnedServer } from '../apps/server/src/test/spawned-server.ts';
import { connectBadges, fire, openConsoles, type Cleanups, type Console } from './alarm-latency/alarm-probe.ts';
import type { Tally } from './firmware/fleet-child.ts';
import { forkScript, nextMessage } from './ingest/load.ts';
import { cpuPercent, fmt, freePort, procSample, quantile, sleep, table } from './ingest/support.ts';

const option = (name: string, fallback: number): number => {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};
const DEVICES = Math.round(option('BENCH_DEVICES', 1000));
const CONSOLES = Math.round(option('BENCH_CONSOLES', 20));
const BADGES = Math.round(option('BENCH_BADGES', 20));
const GAP_MS = Math.round(option('BENCH_GAP_MS', 100));
const BASELINE_S = option('BENCH_BASELINE_S', 60);
const PACKAGE_MB = option('BENCH_PACKAGE_MB', 4);
const OTA_FAILURE = option('BENCH_OTA_FAILURE', 0.02);
const MAX_S = option('BENCH_MAX_S', 1200);
const STAGES = (process.env.BENCH_STAGES?.trim() || '5,25,100').split(',').map(Number);

const TAG = randomBytes(2).toString('hex').toUpperCase();
const ADMIN_PASSWORD = 'Bench#Fw2026';
const HOME_PASSWORD = 'Care#Home2026';
const BADGE_IDS = Array.from({ length: BADGES }, (_, i) => `FB${TAG}-B${String(i + 1).padStart(3, '0')}`);
const badgeSecret = (id: string) => `bench-secret-${id.toLowerCase()}`;

const out = (line = '') => process.stdout.write(`${line}\n`);
const heading = (title: string) => out(`\n== ${title} ${'='.repeat(Math.max(0, 96 - title.length))}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;
const cleanups: Cleanups = [];
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

interface RolloutView {
  state: string;
  stage: number;
  counts: { total: number; succeeded: number; failed: number; inProgress: number; pending: number; deferred: number };
}

/** A firmware image as a stored (not deflated) zip, so the package is as large as asked. */
const packageOf = (megabytes: number): Uint8Array =>
  zipSync({ 'firmware.bin': randomBytes(Math.round(megabytes * 1024 * 1024)) }, { level: 0 });

const main = async () => {
  heading(`Vigil embedded: ${fmt.int(DEVICES)} simulated sleep monitors, ${CONSOLES} consoles, ${BADGES} badges`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-firmware-'));
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
      OTA_CHECK_SECONDS: '2',
    },
    { readyWithinMs: 180_000 },
  );
  cleanups.push(() => server.stop('SIGKILL'));
  const base = `http://127.0.0.1:${httpPort}`;

  const t0 = performance.now();
  const admin = must<{ token: string }>(
    'admin login',
    await call(base, '/admin/login', { userName: 'admin', passWord: ADMIN_PASSWORD }),
  );
  const userName = `firmware${TAG.toLowerCase()}`;
  must(
    'insertProvider',
    await call(
      base,
      '/provider/insertProvider',
      { name: `Bench firmware ${TAG}`, userName, passWord: HOME_PASSWORD },
      admin.token,
    ),
  );
  const home = must<{ token: string; key: string; providerId: number }>(
    'home login',
    await call(base, '/admin/login', { userName, passWord: HOME_PASSWORD }),
  );
  const counts = [{ short: 'sleep', count: DEVICES }];
  const prefix = `FW${TAG}`;
  const plan = planFleet(counts, prefix);
  const secrets = secretsFor(plan, 'firmware-bench', TAG);
  await provisionFleet(plan, secrets, {
    api: base,
    adminUser: 'admin',
    adminPassword: ADMIN_PASSWORD,
    providerId: home.providerId,
  });
  must(
    'badge stock',
    await call(
      base,
      '/device/stock/import',
      { rows: BADGE_IDS.map((deviceId) => ({ deviceId, deviceType: 21000, secret: badgeSecret(deviceId) })) },
      admin.token,
    ),
  );
  for (const deviceId of BADGE_IDS) {
    must('insertDevice', await call(base, '/device/insertDevice', { deviceId, deviceType: 21000 }, home.token));
  }
  out(`  provisioned ${fmt.int(DEVICES + BADGES)} devices in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const fleet = forkScript('../firmware/fleet-child.ts');
  cleanups.push(() => void fleet.kill('SIGKILL'));
  let tally: Tally = { type: 'tally', connected: 0, upgraded: 0, failed: 0, downloading: 0 };
  fleet.on('message', (m: { type: string }) => {
    if (m.type === 'tally') tally = m as Tally;
  });
  fleet.send({
    type: 'start',
    url: `mqtt://127.0.0.1:${mqttPort}`,
    httpUrl: base,
    counts,
    prefix,
    secrets,
    otaFailureRate: OTA_FAILURE,
  });
  await nextMessage(fleet, 'started', 300_000);
  while (tally.connected < DEVICES) await sleep(500);
  out(`  ${fmt.int(tally.connected)} sleep monitors connected, streaming at 1 Hz`);

  const badges = await connectBadges(mqttPort, BADGE_IDS, badgeSecret, cleanups);
  const consoles: Console[] = [];
  await openConsoles(`ws://127.0.0.1:${httpPort}/websocket?lang=en-US`, home.key, CONSOLES, consoles, cleanups);
  out(`  ${consoles.length} consoles logged in; warming up 10 s`);
  await fire(badges, 20, consoles, { gapMs: GAP_MS });
  await sleep(10_000);

  const pid = server.child.pid;
  const memory: number[] = [];
  const sampleMemory = () => {
    const s = procSample(pid);
    if (s) memory.push(s.rssBytes);
  };
  let beforeCpu = procSample(pid);
  const baselineEnd = performance.now() + BASELINE_S * 1000;
  const memoryTimer = setInterval(sampleMemory, 1000);
  cleanups.push(() => clearInterval(memoryTimer));
  const baseline = await fire(badges, Infinity, consoles, {
    gapMs: GAP_MS,
    more: () => performance.now() < baselineEnd,
  });
  const baselineCpu = cpuPercent(beforeCpu, procSample(pid));
  const baselineRss = Math.max(...memory.splice(0));

  heading(`full release of a ${PACKAGE_MB} MB package in stages ${STAGES.join(' → ')} %`);
  const bytes = packageOf(PACKAGE_MB);
  const form = new FormData();
  form.append('deviceType', '49');
  form.append('version', `9.${Number.parseInt(TAG, 16)}.0`);
  form.append('md5', createHash('md5').update(bytes).digest('hex'));
  form.append('remark', 'bench');
  form.append('file', new Blob([bytes]), 'bench.zip');
  const uploadStart = performance.now();
  const uploaded = (await (
    await fetch(`${base}/firmware/uploadFile`, { method: 'POST', headers: { 'x-token': admin.token }, body: form })
  ).json()) as Api;
  const pkg = must<{ id: number; size: number }>('upload', uploaded);
  out(`  uploaded ${fmt.int(pkg.size)} bytes in ${((performance.now() - uploadStart) / 1000).toFixed(1)} s`);

  beforeCpu = procSample(pid);
  const released = performance.now();
  must(
    'release',
    await call(
      base,
      '/firmware/post',
      { id: pkg.id, release: 'full', stages: STAGES, failureThreshold: 20 },
      admin.token,
    ),
  );
  const stageOpened: number[] = [0];
  let rollout: RolloutView | undefined;
  let polling = true;
  let lastPrinted = -1;
  const poll = (async () => {
    while (polling) {
      const page = must<{ rows: { id: number; rollout: RolloutView | null }[] }>(
        'pageList',
        await call(base, '/firmware/pageList/get', { pageNum: 1, pageSize: 10 }, admin.token),
      );
      rollout = page.rows.find((r) => r.id === pkg.id)?.rollout ?? undefined;
      if (rollout && stageOpened.length <= rollout.stage) stageOpened.push((performance.now() - released) / 1000);
      const at = Math.round((performance.now() - released) / 1000);
      if (rollout && at % 10 === 0 && at !== lastPrinted) {
        lastPrinted = at;
        const c = rollout.counts;
        out(
          `  ${String(at).padStart(4)} s: ${rollout.state}, stage ${rollout.stage + 1}; upgraded ${c.succeeded}, ` +
            `in progress ${c.inProgress}, waiting ${c.pending + c.deferred}, failed ${c.failed}; ` +
            `fleet: ${tally.connected} connected, ${tally.upgraded} restarted on it`,
        );
      }
      await sleep(1000);
    }
  })();
  const ended = () =>
    rollout?.state === 'done' || rollout?.state === 'paused' || performance.now() - released > MAX_S * 1000;
  const during = await fire(badges, Infinity, consoles, { gapMs: GAP_MS, more: () => !ended() });
  const seconds = (performance.now() - released) / 1000;
  polling = false;
  await poll;
  const duringCpu = cpuPercent(beforeCpu, procSample(pid));
  clearInterval(memoryTimer);
  const duringRss = Math.max(...memory);

  const downloads = (rollout?.counts.succeeded ?? 0) + (rollout?.counts.failed ?? 0);
  out(
    table(
      ['rollout', 'value'],
      [
        ['state at the end', rollout?.state ?? '?'],
        ['release → done', `${seconds.toFixed(1)} s`],
        ['stages opened at', stageOpened.map((s) => `${s.toFixed(1)} s`).join(', ')],
        [
          'devices upgraded (server)',
          `${fmt.int(rollout?.counts.succeeded ?? 0)} of ${fmt.int(rollout?.counts.total ?? 0)}`,
        ],
        ['failed (server) / failed on the device (fleet)', `${rollout?.counts.failed ?? 0} / ${tally.failed}`],
        ['restarted on the new version (fleet)', fmt.int(tally.upgraded)],
        ['package bytes served', `${((downloads * pkg.size) / 1024 / 1024).toFixed(0)} MB`],
        ['download throughput', `${((downloads * pkg.size) / 1024 / 1024 / seconds).toFixed(1)} MB/s`],
        [
          'server RSS: baseline max → rollout max',
          `${(baselineRss / 2 ** 20).toFixed(0)} → ${(duringRss / 2 ** 20).toFixed(0)} MB`,
        ],
        ['server CPU: baseline → rollout', `${baselineCpu.toFixed(0)} % → ${duringCpu.toFixed(0)} %`],
      ],
    ),
  );
  const row = (label: string, xs: number[]) => [
    label,
    String(xs.length),
    ms(quantile(xs, 0.5)),
    ms(quantile(xs, 0.9)),
    ms(quantile(xs, 0.99)),
    ms(xs.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY)),
  ];
  out(
    table(
      ['publish → /alertNotify', 'samples', 'p50', 'p90', 'p99', 'max'],
      [row('baseline', baseline.pairs), row('during the rollout', during.pairs)],
    ),
  );
  const ratio = quantile(during.pairs, 0.99) / quantile(baseline.pairs, 0.99);
  out(`  alarm p99 during / baseline: ${ratio.toFixed(2)} × (target ≤ 1.2 ×): ${ratio <= 1.2 ? 'PASS' : 'MISS'}`);
  out(`  rollout finished: ${rollout?.state === 'done' ? 'PASS' : `MISS (${rollout?.state ?? 'unknown'})`}`);
  if (baseline.missing + during.missing) out(`  MISSING: ${baseline.missing + during.missing} frames never arrived`);
  fleet.send({ type: 'stop' });
  await sleep(500);
};

main()
  .then(cleanup)
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
