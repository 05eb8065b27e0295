import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { StartupError } from '../core/startup-error.ts';
import { EmbeddedHost, type EmbeddedState, type WorkerMemory } from './embedded/embedded-host.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations (serialised across instances on PostgreSQL). */
  migrate(): Promise<void>;
  /** True when the database answers and every migration of this build is applied. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
  /** The embedded database's worker (decision 0047); absent on PostgreSQL and on a PGlite in this thread (tests). */
  embedded?: {
    state(): EmbeddedState;
    memory(): Promise<WorkerMemory>;
    /** Times the worker ended unexpectedly (and was started again, or given up on). */
    restarts(): number;
    /** Ends the worker as a crash would (tests, drills). */
    crash(): Promise<void>;
  };
}

/** Any key, so concurrent instances starting together migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_243_119;

const migrationCount = (): number => {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
};

const appliedCount = async (db: Db): Promise<number> => {
  try {
    const result = (await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as {
      rows: { n: number }[];
    };
    return Number(result.rows[0]?.n ?? 0);
  } catch {
    return 0;
  }
};

export interface OpenOptions {
  /** postgres://… for a server; otherwise embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory; omitted means in memory (tests). */
  dataDir?: string | undefined;
  /** Ready-made PGlite on this thread (unit tests clone a migrated template). */
  pglite?: PGlite;
  /** PGlite in a worker thread (decision 0047); otherwise on this thread. */
  worker?: boolean;
  /** The embedded database's worker starts from this data directory tarball (tests). */
  load?: Blob;
  /** Told when the embedded database's worker cannot be kept running: the server exits. */
  onEmbeddedGiveUp?: (reason: string) => void;
  onEmbeddedCrash?: (reason: string) => void;
  /** How long a statement may hold the embedded database before its worker is restarted (tests). */
  embeddedWatchdog?: { hangMs: number; pingMs: number };
}

const migrateWithLock = async (pool: pg.Pool): Promise<void> => {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
};

export const openDatabase = async (options: OpenOptions): Promise<Database> => {
  const expected = migrationCount();
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migrateWithLock(pool),
      ready: async () => (await appliedCount(db)) >= expected,
      close: () => pool.end(),
    };
  }
  if (!options.pglite && (options.worker || options.load)) return openEmbedded(options, expected);
  let pglite = options.pglite;
  if (!pglite) {
    if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
    pglite = await PGlite.create(options.dataDir);
  }
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(pglite, { schema }), { migrationsFolder: MIGRATIONS_DIR }),
    ready: async () => (await appliedCount(db)) >= expected,
    close: () => pglite.close(),
  };
};

/**
 * PGlite in its own worker thread, reached with the same driver as PostgreSQL (decision 0047).
 * One connection: PGlite is one session, so transactions take turns as they did on this thread.
 */
const openEmbedded = async (options: OpenOptions, expected: number): Promise<Database> => {
  const host = await EmbeddedHost.start({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.load ? { load: options.load } : {}),
    ...(options.onEmbeddedGiveUp ? { onGiveUp: options.onEmbeddedGiveUp } : {}),
    ...(options.onEmbeddedCrash ? { onCrash: options.onEmbeddedCrash } : {}),
    ...options.embeddedWatchdog,
  }).catch((error: unknown) => {
    throw new StartupError(
      `the embedded database${options.dataDir ? ` in ${options.dataDir}` : ''} could not be opened: ${(error as Error).message}`,
    );
  });
  const pool = new pg.Pool({
    max: 1,
    user: 'postgres',
    database: 'postgres',
    // The session is kept: a new one costs a start-up and a reset in the worker.
    idleTimeoutMillis: 0,
    stream: () => host.socket(),
  } as pg.PoolConfig);
  pool.on('error', () => undefined);
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => host.unwatched(() => migrateWithLock(pool)),
    ready: async () => host.state === 'up' && (await appliedCount(db)) >= expected,
    close: async () => {
      await pool.end().catch(() => undefined);
      await host.stop();
    },
    embedded: {
      state: () => host.state,
      memory: () => host.memory(),
      restarts: () => host.restarts,
      crash: () => host.crash(),
    },
  };
};
