/**
 * `npm run cluster`: the multi-instance deployment of docs/operations.md on one machine, to try
 * it and to drill it — three Vigil instances on PostgreSQL, a Mosquitto of its own (persistence
 * on, shared subscriptions), Redis, HAProxy in front (deploy/haproxy/vigil.cfg), a care home with
 * simulated devices. Ctrl-C stops everything it started and drops its database (unless --keep).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 \
 *     npm run cluster -- [--port 8080] [--devices sleep=40,button=20,…] [--pressers 5] [--keep]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CONSOLE_DIR } from '../../apps/server/src/config.ts';
import { hasMosquitto } from '../../apps/server/src/test/private-mosquitto.ts';
import { ADMIN_PASSWORD, Stage } from '../../bench/drills/stage.ts';
import { hasHaproxy } from './balancer.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    devices: { type: 'string', default: 'sleep=40,button=20,door=10,smoke=5,radar=5,badge=5,watch=2,motion=3' },
    pressers: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});

const missing = [
  !process.env.DATABASE_URL && 'DATABASE_URL (a PostgreSQL server: a database of its own is created there)',
  !process.env.REDIS_URL && 'REDIS_URL',
  !hasMosquitto() && 'the mosquitto package (apt-get install mosquitto)',
  !hasHaproxy() && 'the haproxy package (apt-get install haproxy)',
].filter(Boolean);
if (missing.length) {
  console.error(`npm run cluster needs: ${missing.join('; ')}`);
  process.exit(2);
}

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-cluster-logs-'));
const log = (line: string) => console.log(`[cluster] ${line}`);
const stage = new Stage({
  devices: values.devices,
  pressers: Number(values.pressers),
  keep: values.keep,
  balanced: true,
  balancerPort: Number(values.port),
  consoleDir: DEFAULT_CONSOLE_DIR,
  logDir,
  logLevel: 'info',
  log,
});

let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  log('stopping: devices, instances, balancer, broker');
  await stage.close().catch((error: unknown) => console.error(error));
  log(`instance logs kept in ${logDir}`);
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  await stage.start();
} catch (error) {
  console.error(error);
  await stop(1);
}
const balancer = stage.balancer;
if (balancer) {
  const careHome = `drill${stage.run.toLowerCase()}`.slice(0, 16);
  console.log(`
Vigil cluster is up:
  console (through HAProxy)   ${balancer.url}/
  balancer statistics         ${balancer.statsUrl}
  instances                   ${stage.ports.map((p, i) => `${i}: http://127.0.0.1:${p}`).join('   ')}
  MQTT broker (devices)       ${stage.broker.url}
  sign in                     admin / ${ADMIN_PASSWORD}   or the care home: ${careHome} / Care#Home2026
  metrics                     curl -H 'authorization: Bearer ${stage.metricsToken}' http://127.0.0.1:${stage.ports[0]}/metrics
  instance logs               ${logDir}/instance-<n>.log

Try: kill -9 an instance (pids ${stage.instances.map((i) => i.child.pid).join(', ')}) and watch the console reconnect.
Ctrl-C stops everything.`);
}
