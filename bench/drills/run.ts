/**
 * Fault drills (issue 28): the deployment of docs/operations.md — two instances on PostgreSQL,
 * an external Mosquitto with persistence and Redis — with a simulated care home, badges calling
 * for help and a console on each instance; then one part fails as it does in production:
 *
 *   broker-restart    Mosquitto restarted (its sessions restored from disk)
 *   database-outage   PostgreSQL unreachable for 30 s
 *   redis-outage      Redis unreachable for 30 s
 *   split-traffic     no fault: 20 minutes of the broker sharing messages between the instances
 *
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
import { judge, passes, type Verdict } from './verdict.ts';

const DRILLS = ['broker-restart', 'database-outage', 'redis-outage', 'split-traffic'] as const;
type Drill = (typeof DRILLS)[number];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    devices: { type: 'string', default: 'sleep=90,button=40,door=30,smoke=10,radar=10,badge=10,watch=5,motion=5' },
    pressers: { type: 'string', default: '20' },
    minutes: { type: 'string', default: '20' },
    'outage-seconds': { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
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

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const outageMs = Number(values['outage-seconds']) * 1000;

const stage = new Stage({ devices: values.devices, pressers: Number(values.pressers), keep: values.keep, log });
let verdict: Verdict | undefined;
try {
  await stage.start();
  log('devices connected; warming up 45 s');
  await sleep(45_000);
  const windowStart = new Date();
  log('window opens');
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
      log(`${values.minutes} minutes of traffic shared between the instances`);
      await sleep(Number(values.minutes) * 60_000 - 30_000);
      break;
  }
  log('recovery: 90 s');
  await sleep(90_000);
  const windowEnd = new Date();
  const shown = stage.consoles.map((c) => new Set(c.pending));
  await stage.stopDevices();
  log('devices stopped; 15 s for the last events to settle');
  await sleep(15_000);
  verdict = await judge(stage, windowStart, windowEnd, shown);
} finally {
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
    ['alarms raised', `${v.alarmsRaised}; pushed to both consoles: ${v.pushedToAll}`],
    ['raised → frame (ms)', `p50 ${v.frameP50}, p99 ${v.frameP99}, max ${v.frameMax}`],
    ['open alarms a console does not show', `${v.openNotShown}`],
    ['/checkAlarm per console', v.checkAlarms.join(', ')],
    ['console closes', v.consoleCloses.map((c) => `[${c.join(' ')}]`).join(', ')],
  ];
  console.log(`\n## drill ${drill}\n`);
  for (const [what, value] of rows) console.log(`${what.padEnd(40)} ${value}`);
  const ok = passes(v);
  console.log(
    `\n${ok ? 'PASS' : 'FAIL'}: 0 acknowledged events lost, 0 false CONNECTION alarms, no exit, every open alarm shown`,
  );
  process.exit(ok ? 0 : 1);
}
