import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../database.ts';
import { dbErrorOf } from '../db-errors.ts';

const pgErrorCode = (error: unknown) => dbErrorOf(error)?.code;

const open: Database[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const embedded = async (options: Parameters<typeof openDatabase>[0] = {}): Promise<Database> => {
  const database = await openDatabase({ worker: true, ...options });
  open.push(database);
  await database.db.execute(sql`create table if not exists box (id int primary key, n int not null, note text)`);
  return database;
};
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-embedded-'));
  dirs.push(dir);
  return dir;
};
const rows = async <T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

describe('the embedded database in its worker', () => {
  it('reports a query error with its code and goes on serving', async () => {
    const database = await embedded();
    await database.db.execute(sql`insert into box values (1, 0, null)`);
    const error = await database.db.execute(sql`insert into box values (1, 0, null)`).catch((e: unknown) => e);
    expect(pgErrorCode(error)).toBe('23505');
    const failed = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into box values (2, 0, null)`);
        await tx.execute(sql`select 1 / 0`);
      })
      .catch((e: unknown) => e);
    expect(pgErrorCode(failed)).toBe('22012');
    expect(await rows<{ id: number }>(database, sql`select id from box order by id`)).toEqual([{ id: 1 }]);
  });

  it('carries a large result whole (about 24 MB)', async () => {
    const database = await embedded();
    const result = await rows<{ i: number; s: string }>(
      database,
      sql`select i, repeat(md5(i::text), 64) as s from generate_series(1, 12000) i`,
    );
    expect(result).toHaveLength(12000);
    expect(result.at(-1)?.s).toHaveLength(2048);
    expect(result.reduce((sum, r) => sum + r.i, 0)).toBe((12000 * 12001) / 2);
  });

  it('runs concurrent transactions one after another, each whole (FOR UPDATE, advisory locks)', async () => {
    const database = await embedded();
    await database.db.execute(sql`insert into box values (1, 0, null)`);
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        database.db
          .transaction(async (tx) => {
            await tx.execute(sql`select pg_advisory_xact_lock(42)`);
            const [row] = (
              (await tx.execute(sql`select n from box where id = 1 for update`)) as unknown as {
                rows: { n: number }[];
              }
            ).rows;
            await tx.execute(sql`update box set n = ${(row?.n ?? 0) + 1} where id = 1`);
            if (i % 5 === 4) throw new Error('rolled back on purpose');
          })
          .catch(() => undefined),
      ),
    );
    expect(await rows<{ n: number }>(database, sql`select n from box where id = 1`)).toEqual([{ n: 20 }]);
  });

  it('ends a statement that holds the database too long: it fails, the worker is started again and serves', async () => {
    const crashes: string[] = [];
    const database = await embedded({
      embeddedWatchdog: { hangMs: 600, pingMs: 100 },
      onEmbeddedCrash: (reason) => crashes.push(reason),
    });
    const error = await database.db
      .execute(sql`select count(*) from generate_series(1, 2000000000)`)
      .catch((e: unknown) => e);
    expect(String((error as { cause?: unknown }).cause)).toMatch(/connection lost/);
    expect(crashes[0]).toMatch(/held the database for more than 1 s/);
    let answer: unknown;
    for (let i = 0; i < 100 && answer === undefined; i++) {
      answer = await rows(database, sql`select 1 as one`).catch(() => undefined);
      if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer).toEqual([{ one: 1 }]);
  });

  it('restarts a crashed worker on the same data; queries fail while it is down, then work', async () => {
    const crashes: string[] = [];
    const database = await embedded({ dataDir: dataDir(), onEmbeddedCrash: (reason) => crashes.push(reason) });
    await database.db.execute(sql`insert into box values (7, 7, 'kept')`);
    await database.embedded?.crash();
    expect(crashes).toHaveLength(1);
    expect(database.embedded?.state()).toBe('restarting');
    let answer: unknown;
    for (let i = 0; i < 100 && answer === undefined; i++) {
      answer = await rows<{ note: string }>(database, sql`select note from box where id = 7`).catch(() => undefined);
      if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer).toEqual([{ note: 'kept' }]);
    expect(database.embedded?.state()).toBe('up');
    expect(await database.ready()).toBe(false); // no migrations in this test database: up, not migrated
  });

  it('gives up with one reason when the worker keeps failing', async () => {
    let gaveUp: string | undefined;
    const database = await openDatabase({
      worker: true,
      dataDir: dataDir(),
      onEmbeddedGiveUp: (reason) => (gaveUp = reason),
    });
    open.push(database);
    for (let i = 0; i < 4; i++) {
      await database.embedded?.crash();
      for (let j = 0; j < 100 && database.embedded?.state() === 'restarting'; j++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(database.embedded?.state()).toBe('failed');
    expect(gaveUp).toMatch(/failed 4 times/);
    await expect(database.db.execute(sql`select 1`)).rejects.toThrow();
  });

  it('rolls back what a lost connection left open', async () => {
    const database = await embedded();
    const pool = (database.db as unknown as { $client: Pool }).$client;
    const client = await pool.connect();
    await client.query('begin');
    await client.query('insert into box values (9, 9, null)');
    client.release(new Error('dropped mid-transaction'));
    expect(await rows(database, sql`select id from box where id = 9`)).toEqual([]);
  });
});
