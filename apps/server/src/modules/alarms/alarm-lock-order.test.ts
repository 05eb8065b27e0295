import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../db/database.ts';
import { dbErrorOf } from '../../db/db-errors.ts';
import { openTestDatabase, type TestDb } from '../../test/harness.ts';
import { inLockOrder } from './alarm-runner.ts';
import type { EventDecision } from './engine/engine-types.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the order alarm rows are written in', () => {
  const decision = (deviceId: string, op: 'raise' | 'release', n: number) =>
    ({ op, key: { deviceId, type: 'SOS' }, n }) as unknown as EventDecision & { n: number };

  it('is by device, each device keeping its own order (a raise before its release)', () => {
    const decided = [
      decision('BADGE-B', 'raise', 1),
      decision('BADGE-A', 'raise', 2),
      decision('BADGE-B', 'release', 3),
      decision('BADGE-A', 'release', 4),
      decision('BADGE-C', 'raise', 5),
    ];
    expect(inLockOrder(decided).map((d) => d.n)).toEqual([2, 4, 1, 3, 5]);
    // Another instance deciding the same devices in another order writes them in the same one.
    expect(inLockOrder([...decided].reverse()).map((d) => lockedDeviceOf(d))).toEqual(
      inLockOrder(decided).map((d) => lockedDeviceOf(d)),
    );
  });
});
const lockedDeviceOf = (d: EventDecision) => (d.op === 'watch-release' ? d.watch.deviceId : d.key.deviceId);

/**
 * Why the order matters: two instances' batches writing the same two devices' alarm rows, each
 * in its own order, deadlock (PostgreSQL fails one after its deadlock_timeout, issue 21's soak);
 * written in lock order, the second waits for the first and both commit.
 */
describe.skipIf(!process.env.DATABASE_URL)('two batches on PostgreSQL (skipped without DATABASE_URL)', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDatabase('postgres');
    const { db } = testDb.database;
    await db.execute(sql`create table crosswise (device text primary key, n int not null)`);
    await db.execute(sql`insert into crosswise values ('BADGE-A', 0), ('BADGE-B', 0)`);
  }, 60_000);
  afterAll(async () => {
    await testDb?.close();
  });

  const batch = (devices: string[]) =>
    testDb.database.db.transaction(async (tx: Executor) => {
      for (const device of devices) {
        await tx.execute(sql`update crosswise set n = n + 1 where device = ${device}`);
        await pause(150);
      }
    });
  const ordered = (devices: string[]) =>
    inLockOrder(devices.map((deviceId) => decision(deviceId))).map((d) => lockedDeviceOf(d));
  const decision = (deviceId: string) => ({ op: 'raise', key: { deviceId, type: 'SOS' } }) as unknown as EventDecision;

  it('in arrival order, opposite orders deadlock', async () => {
    const results = await Promise.allSettled([batch(['BADGE-A', 'BADGE-B']), batch(['BADGE-B', 'BADGE-A'])]);
    const codes = results.flatMap((r) => (r.status === 'rejected' ? [dbErrorOf(r.reason)?.code] : []));
    expect(codes).toEqual(['40P01']);
  });

  it('in lock order, the second waits for the first and both commit', async () => {
    const results = await Promise.allSettled([
      batch(ordered(['BADGE-A', 'BADGE-B'])),
      batch(ordered(['BADGE-B', 'BADGE-A'])),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  });
});
