/**
 * Fault drills (issue 28): the deployment of docs/operations.md — two instances on PostgreSQL,
 * an external Mosquitto with persistence and Redis — with a simulated care home, badges calling
 * for help and a console on each instance; then one part fails as it does in production:
 *
 *   broker-restart    Mosquitto restarted (its sessions restored from disk)
 *   database-outage   PostgreSQL unreachable for 30 s
 *   redis-outage      Redis unreachable for 30 s
 *   split-traffic     no fault: 20 minutes of the broker sharing messages between the instances
 *   kill-instance     three instances behind HAProxy; one killed with SIGKILL, restarted 60 s later
 *   soak              three instances behind HAProxy, 5,000 devices for 30 minutes: memory and
 *                     event-loop delay must stay flat
 *
 * `--cluster` runs the first four on the cluster topology too (three instances behind HAProxy,
 * deploy/haproxy/vigil.cfg; consoles through the balancer); kill-instance and soak always do.
 * Judged against the ground truth (what the broker acknowledged to each device): acknowledged
 * events lost, false CONNECTION alarms, instances that exited, open alarms a console does not
 * show. Exit code 1 when any is not 0.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 \
 *     npm run drill -- broker-restart [--devices sleep=90,button=40,…] [--pressers 20] [--minutes 20]
 */
import { parseArgs } from 'node:util';
import { hasMosquitto } from '../../apps/server/src/test/private-mosquitto.ts';
import { Stage } from './stage.ts';
import { hasHaproxy } from '../../scripts/cluster/balancer.ts';
import { drift, isFlat, MetricsSampler, series, type Drift } from './sampler.ts';
import fs from 'node:fs';
import path from 'node:path';
import { judge, passes, type Verdict } from './verdict.ts';

const DRILLS = ['broker-restart', 'database-outage', 'redis-outage', 'split-traffic', 'kill-instance', 'soak'] as const;
type Drill = (typeof DRILLS)[number];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    devices: { type: 'string' },
    pressers: { type: 'string', default: '20' },
    minutes: { type: 'string' },
    cluster: { type: 'boolean', default: false },
    'outage-seconds': { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
    /** Each instance's output goes to instance-<i>.log in this folder. */
    logs: { type: 'string' },
  },
});
const drill = positionals[0] as Drill;
if (!DRILLS.includes(drill)) {
  console.error(`name a drill: ${DRILLS.join(', ')}`);
  process.exit(2);
}
if (!hasMosquitto()) {
  console.error('the drills run a Mosquitto of their own: install the mosquitto package');
  process.exit(2);
}

const balanced = values.cluster || drill === 'kill-instance' || drill === 'soak';
if (balanced && !hasHaproxy()) {
  console.error('the cluster drills run HAProxy: install the haproxy package');
  process.exit(2);
}
const devices =
  values.devices ??
  (drill === 'soak'
    ? 'sleep=2500,button=800,door=600,smoke=300,radar=300,badge=250,watch=100,motion=150'
    : 'sleep=90,button=40,door=30,smoke=10,radar=10,badge=10,watch=5,motion=5');
const minutes = Number(values.minutes ?? (drill === 'soak' ? 30 : 20));
/** Consoles whose socket closed must be back, with their pending lists, within this. */
const RECOVERY_LIMIT_MS = 10_000;

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const outageMs = Number(values['outage-seconds']) * 1000;

const stage = new Stage({
  devices,
  pressers: Number(values.pressers),
  keep: values.keep,
  balanced,
  log,
  ...(values.logs ? { logDir: values.logs } : {}),
});
const sampler = new MetricsSampler(
  () => stage.ports.map((_, i) => stage.base(i)),
  stage.metricsToken,
  drill === 'soak' ? 30_000 : 10_000,
);
let verdict: Verdict | undefined;
let drifts: Drift[] = [];
let killedRecovery: number[] = [];
try {
  await stage.start();
  log('devices connected; warming up 45 s');
  await sleep(45_000);
  const windowStart = new Date();
  log('window opens');
  sampler.start();
  await sleep(30_000);

  switch (drill) {
    case 'broker-restart':
      log('Mosquitto restarted (SIGTERM: its sessions written to disk, then started again)');
      await stage.broker.restart();
      break;
    case 'database-outage':
      log(`PostgreSQL unreachable for ${outageMs / 1000} s`);
      await stage.database.down();
      await sleep(outageMs);
      await stage.database.up();
      log('PostgreSQL back');
      break;
    case 'redis-outage':
      log(`Redis unreachable for ${outageMs / 1000} s`);
      await stage.redis.down();
      await sleep(outageMs);
      await stage.redis.up();
      log('Redis back');
      break;
    case 'split-traffic':
      log(`${minutes} minutes of traffic shared between the instances`);
      await sleep(minutes * 60_000 - 30_000);
      break;
    case 'kill-instance': {
      const before = stage.consoles.map((c) => c.recoveries.length);
      log('instance 1 killed (SIGKILL)');
      await stage.kill(1);
      await sleep(60_000);
      killedRecovery = stage.consoles.flatMap((c, i) => c.recoveries.slice(before[i]));
      log(
        `consoles that lost their socket back in: ${killedRecovery.map((ms) => `${ms} ms`).join(', ') || 'none lost'}`,
      );
      log('instance 1 started again, as its supervisor would');
      await stage.restart(1);
      break;
    }
    case 'soak':
      log(`${minutes} minutes at ${devices}`);
      await sleep(minutes * 60_000 - 30_000);
      break;
  }
  log('recovery: 90 s');
  await sleep(90_000);
  const windowEnd = new Date();
  const shown = stage.consoles.map((c) => new Set(c.pending));
  await stage.stopDevices();
  log('devices stopped; 15 s for the last events to settle');
  await sleep(15_000);
  sampler.stop();
  drifts = drift(sampler.samples, 5 * 60_000);
  verdict = await judge(stage, windowStart, windowEnd, shown);
} finally {
  sampler.stop();
  await stage.close();
}

if (verdict) {
  const v = verdict;
  const rows: [string, string][] = [
    ['instances that exited', `${v.exits}`],
    ['events acknowledged to devices', `${v.acknowledgedEvents} (alarm-raising: ${v.acknowledgedAlarmEvents})`],
    ['  of them never stored', `${v.acknowledgedLost} (alarm-raising: ${v.acknowledgedAlarmEventsLost})`],
    ['events stored twice', `${v.doubles}`],
    ['false CONNECTION alarms', `${v.falseConnectionAlarms}`],
    ['sent → PUBACK (ms)', `p50 ${v.ackP50}, p99 ${v.ackP99}, max ${v.ackMax}; over 10 s: ${v.ackLate}`],
    ['sent → taken (ms)', `p50 ${v.storeP50}, p99 ${v.storeP99}, max ${v.storeMax}; over 10 s: ${v.storedLate}`],
    ['  sent → at the broker (ms)', `p99 ${v.toBrokerP99}, max ${v.toBrokerMax}; over 10 s: ${v.toBrokerLate}`],
    [
      '  broker → an instance took it (ms)',
      `p99 ${v.brokerToStoredP99}, max ${v.brokerToStoredMax}; over 10 s: ${v.brokerToStoredLate}`,
    ],
    ['device disconnects', `${v.deviceDisconnects}`],
    ['deadlocks (PostgreSQL)', `${v.deadlocks}`],
    ['alarms raised', `${v.alarmsRaised}; pushed to every console: ${v.pushedToAll}`],
    ['raised → frame (ms)', `p50 ${v.frameP50}, p99 ${v.frameP99}, max ${v.frameMax}`],
    ['open alarms a console does not show', `${v.openNotShown}`],
    ['/checkAlarm per console', v.checkAlarms.join(', ')],
    ['console closes', v.consoleCloses.map((c) => `[${c.join(' ')}]`).join(', ')],
    ['console back after a close (ms)', v.consoleRecoveries.map((c) => `[${c.join(' ')}]`).join(', ')],
    ...(drill === 'soak' ? drifts : []).map((d): [string, string] => [
      `instance ${d.instance}: first → last 5 min`,
      `RSS ${d.rssFirstMb.toFixed(0)} → ${d.rssLastMb.toFixed(0)} MB, heap ${d.heapFirstMb.toFixed(0)} → ${d.heapLastMb.toFixed(0)} MB, loop p99 ${d.loopFirstMs.toFixed(1)} → ${d.loopLastMs.toFixed(1)} ms`,
    ]),
  ];
  console.log(`\n## drill ${drill}\n`);
  for (const instance of [...new Set(sampler.samples.map((s) => s.instance))].sort()) {
    const own = sampler.samples.filter((s) => s.instance === instance);
    const first = own[0];
    const last = own.at(-1);
    if (!first || !last || last.eventWrites <= first.eventWrites) continue;
    const writes = last.eventWrites - first.eventWrites;
    const seconds = last.eventWriteSeconds - first.eventWriteSeconds;
    rows.push([
      `instance ${instance}: event batches`,
      `${writes}, ${((seconds / writes) * 1000).toFixed(0)} ms each on average, ${((seconds / ((last.at - first.at) / 1000)) * 100).toFixed(0)}% of the time writing`,
    ]);
    const stored = last.eventsStored - first.eventsStored;
    const loop = own.map((s) => s.loopP99Ms).sort((a, b) => a - b);
    rows.push([
      `instance ${instance}: events taken → stored`,
      `${stored}, ${(((last.eventStoreSeconds - first.eventStoreSeconds) / Math.max(1, stored)) * 1000).toFixed(0)} ms on average; loop delay p99 (median of readings) ${(loop[Math.floor(loop.length / 2)] ?? 0).toFixed(0)} ms`,
    ]);
  }
  for (const [what, value] of rows) console.log(`${what.padEnd(40)} ${value}`);
  if (drill === 'soak') {
    console.log('\nper 5 minutes (medians):');
    const round = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
    for (const s of series(sampler.samples, 5 * 60_000))
      console.log(
        `  instance ${s.instance}: RSS ${round(s.rssMb)} MB; heap ${round(s.heapMb)} MB; loop p99 ${round(s.loopP99Ms)} ms`,
      );
    // Every reading, for a closer look (bench/results is not committed).
    const file = path.join('bench/results', `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ devices, minutes, samples: sampler.samples }, null, 1));
    console.log(`  every reading: ${file}`);
  }
  const recovered = killedRecovery.every((ms) => ms <= RECOVERY_LIMIT_MS);
  const flat = drill !== 'soak' || (drifts.length > 0 && drifts.every(isFlat));
  const ok = passes(v) && recovered && flat;
  console.log(
    `\n${ok ? 'PASS' : 'FAIL'}: 0 acknowledged events lost or doubled, 0 false CONNECTION alarms, no unplanned exit, every open alarm shown` +
      (drill === 'kill-instance' ? `, consoles back within ${RECOVERY_LIMIT_MS / 1000} s` : '') +
      (drill === 'soak' ? ', memory and event-loop delay flat' : ''),
  );
  process.exit(ok ? 0 : 1);
}
