import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDb } from '../test/harness.ts';
import type { Executor } from './database.ts';
import { dbErrorOf } from './db-errors.ts';
import { lockDeviceWrites } from './device-write-locks.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two instances' batches writing the same two devices' alarm rows, each in its own order: the
 * crosswise row locks of issue 21's soak. Without a shared order PostgreSQL kills one as a
 * deadlock; with `lockDeviceWrites` first the second waits and both commit.
 */
describe.skipIf(!process.env.DATABASE_URL)('device write locks on PostgreSQL (skipped without DATABASE_URL)', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDatabase('postgres');
    const { db } = testDb.database;
    await db.execute(sql`create table crosswise (device text primary key, n int not null)`);
    await db.execute(sql`insert into crosswise values ('A', 0), ('B', 0)`);
  }, 60_000);
  afterAll(async () => {
    await testDb?.close();
  });

  const batch = (order: string[], locked: boolean) =>
    testDb.database.db.transaction(async (tx: Executor) => {
      if (locked) await lockDeviceWrites(tx, order);
      for (const device of order) {
        await tx.execute(sql`update crosswise set n = n + 1 where device = ${device}`);
        await pause(150);
      }
    });

  it('without it, two batches in opposite orders deadlock', async () => {
    const results = await Promise.allSettled([batch(['A', 'B'], false), batch(['B', 'A'], false)]);
    const codes = results.flatMap((r) => (r.status === 'rejected' ? [dbErrorOf(r.reason)?.code] : []));
    expect(codes).toEqual(['40P01']);
  });

  it('with it, the second waits for the first and both commit', async () => {
    const before = await testDb.database.db.execute(sql`select sum(n)::int as n from crosswise`);
    const results = await Promise.allSettled([batch(['A', 'B'], true), batch(['B', 'A'], true)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const after = await testDb.database.db.execute(sql`select sum(n)::int as n from crosswise`);
    const sum = (r: unknown) => (r as { rows: { n: number }[] }).rows[0]?.n ?? 0;
    expect(sum(after) - sum(before)).toBe(4);
  });
});
