/**
 * The embedded database in its worker thread (decision 0047) against PGlite on the server's own
 * thread (what the server did before), in one run on this machine:
 *
 * 1. Start: open a fresh data directory and migrate it; then open it again (a restart).
 * 2. The boundary's cost: a one-row query, and a transaction of three statements, one after
 *    another (latency), on each.
 * 3. What the server's thread is left with: 200 queries of 2,000 rows each while a timer ticks
 *    every millisecond on the thread; the longest tick gap (how long the thread was held).
 * 4. The whole server (npm start's entry, embedded defaults): a fresh data directory to /readyz
 *    200, then a restart on it, with DATABASE_WORKER=0 and =1.
 *
 * Run: npm run bench:embedded      (about two minutes)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../apps/server/src/db/database.ts';
import { spawnServer } from '../apps/server/src/test/spawned-server.ts';
import { fmt, freePort, quantile, table } from './ingest/support.ts';

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-embedded-'));
  dirs.push(dir);
  return path.join(dir, 'pglite');
};
type Kind = 'thread' | 'worker';
const open = async (kind: Kind, dataDir: string): Promise<Database> =>
  kind === 'worker' ? openDatabase({ dataDir, worker: true }) : openDatabase({ pglite: await PGlite.create(dataDir) });

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

const startTimes = async (kind: Kind) => {
  const dataDir = freshDir();
  const [first, fresh] = await timed(async () => {
    const database = await open(kind, dataDir);
    await database.migrate();
    return database;
  });
  await first.close();
  const [again, restart] = await timed(async () => {
    const database = await open(kind, dataDir);
    await database.migrate();
    return database;
  });
  return { database: again, fresh, restart };
};

let nextRow = 0;
const latencies = async (database: Database, runs: number) => {
  const query: number[] = [];
  const transaction: number[] = [];
  for (let run = 0; run < runs; run++) {
    const i = nextRow++;
    let t = performance.now();
    await database.db.execute(sql`select ${i}::int as i`);
    query.push(performance.now() - t);
    t = performance.now();
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into bench_row (n, note) values (${i}, 'x')`);
      await tx.execute(sql`select n from bench_row where n = ${i} for update`);
      await tx.execute(sql`update bench_row set note = 'y' where n = ${i}`);
    });
    transaction.push(performance.now() - t);
  }
  return { query, transaction };
};

/** The longest gap between 1 ms ticks on this thread while `work` runs. */
const heldWhile = async (work: () => Promise<void>) => {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const [, took] = await timed(work);
  clearInterval(timer);
  // A thread held to the end never ticked at all: the gap since the last tick counts too.
  return { longest: Math.max(longest, performance.now() - last), took };
};

/** npm start's entry on a fresh data directory → /readyz, then again on the same directory. */
const serverStart = async (kind: Kind) => {
  const dataDir = path.dirname(freshDir());
  const env = { PORT: String(await freePort()), MQTT_PORT: String(await freePort()), DATA_DIR: dataDir };
  const once = async () => {
    const [server, took] = await timed(() =>
      spawnServer({ ...env, DATABASE_WORKER: kind === 'worker' ? '1' : '0' }, { readyWithinMs: 180_000 }),
    );
    await server.stop('SIGTERM');
    return took;
  };
  const fresh = await once();
  return { fresh, restart: await once() };
};

const run = async (kind: Kind) => {
  const server = await serverStart(kind);
  const { database, fresh, restart } = await startTimes(kind);
  await database.db.execute(sql`create table bench_row (n int primary key, note text)`);
  await latencies(database, 50); // warm
  const { query, transaction } = await latencies(database, 1000);
  const held = await heldWhile(async () => {
    for (let i = 0; i < 200; i++)
      await database.db.execute(sql`select g, md5(g::text) as h from generate_series(1, 2000) g`);
  });
  await database.close();
  return { fresh, restart, query, transaction, held, server };
};

const thread = await run('thread');
const worker = await run('worker');
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const p = (xs: number[], q: number) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    q,
  );
type Run = Awaited<ReturnType<typeof run>>;
/** One row: the figure on the thread, in the worker, and their ratio. */
const row = (label: string, figure: (r: Run) => number) => {
  const [a, b] = [figure(thread), figure(worker)];
  return [label, ms(a), ms(b), ratio(b, a)];
};
console.log(
  table(
    ['', 'on the thread (before)', 'in the worker', 'worker / thread'],
    [
      row('fresh data directory: open + migrate', (r) => r.fresh),
      row('restart: open + migrations checked', (r) => r.restart),
      row('one-row query p50', (r) => p(r.query, 0.5)),
      row('one-row query p99', (r) => p(r.query, 0.99)),
      row('3-statement transaction p50', (r) => p(r.transaction, 0.5)),
      row('3-statement transaction p99', (r) => p(r.transaction, 0.99)),
      row('200 × 2,000-row queries: took', (r) => r.held.took),
      row('  longest hold of this thread', (r) => r.held.longest),
      row('server, fresh data directory → /readyz', (r) => r.server.fresh),
      row('server restart → /readyz', (r) => r.server.restart),
    ],
  ),
);
console.log(`(${fmt.int(1000)} queries and transactions each; this machine: ${os.cpus().length} cores)`);
for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
