import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../db/database.ts';
import { deviceLiveState } from '../../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { LiveStateStore } from './live-state.ts';
import { LiveStateWriter } from './live-state.writer.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 25, 3, 0, 0) + s * 1000);

/** The database, counting insert statements, or failing them while `down` is set. */
const watched = (db: Db) => {
  const seen = { inserts: 0, down: false };
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'insert') {
        if (seen.down) throw new Error('database unavailable');
        seen.inserts++;
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return { db: proxy, seen };
};

describeEachDb('live device state written in batches (%s)', (target) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(target);
  });
  afterAll(() => app?.close());

  it('writes 2,500 devices in three statements, not one per message, and reads them back', async () => {
    const store = new LiveStateStore();
    const { db, seen } = watched(app.database.db);
    const writer = new LiveStateWriter(db, store, app.clock, { batchSize: 1000 });
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 2500; i++) store.apply(`BATCH-${i}`, { online: true, battery: round * 10 }, at(round));
    }
    expect(await writer.flush()).toBe(2500);
    expect(seen.inserts).toBe(3);
    const rows = await app.database.db.select().from(deviceLiveState);
    expect(rows.filter((r) => r.deviceId.startsWith('BATCH-'))).toHaveLength(2500);
    expect(rows.find((r) => r.deviceId === 'BATCH-7')).toMatchObject({ online: true, battery: 30, lastSeenAt: at(3) });

    const reloaded = new LiveStateStore();
    await new LiveStateWriter(app.database.db, reloaded, app.clock).load();
    expect(reloaded.get('BATCH-7')).toMatchObject({ online: true, battery: 30, lastSeenAt: at(3) });
    expect(reloaded.dirtyCount).toBe(0);
  });

  it('keeps what it could not write while the database is down, and writes it when it is back', async () => {
    const store = new LiveStateStore();
    const { db, seen } = watched(app.database.db);
    const writer = new LiveStateWriter(db, store, app.clock, { batchSize: 100 });
    store.apply('DOWN-1', { online: true, signal: -60 }, at(10));
    store.apply('DOWN-2', { online: false }, at(10));
    seen.down = true;
    await expect(writer.flush()).rejects.toThrow('database unavailable');
    expect(store.dirtyCount).toBe(2);
    expect(writer.lastError).toBeDefined();
    store.apply('DOWN-1', { signal: -55 }, at(11));
    seen.down = false;
    expect(await writer.flush()).toBe(2);
    expect(writer.lastError).toBeUndefined();
    const rows = await app.database.db.select().from(deviceLiveState);
    expect(rows.find((r) => r.deviceId === 'DOWN-1')).toMatchObject({ signal: -55, lastSeenAt: at(11) });
  });

  it('never rewinds last seen in the table when an older state is written after a newer one', async () => {
    const first = new LiveStateStore();
    first.apply('LATE-1', { online: true }, at(50));
    await new LiveStateWriter(app.database.db, first, app.clock).flush();
    const second = new LiveStateStore();
    second.apply('LATE-1', { online: true, battery: 40 }, at(20));
    await new LiveStateWriter(app.database.db, second, app.clock).flush();
    const rows = await app.database.db.select().from(deviceLiveState);
    expect(rows.find((r) => r.deviceId === 'LATE-1')).toMatchObject({ battery: 40, lastSeenAt: at(50) });
  });
});

it('lets waiting I/O run between its batches, not only after the last', async () => {
  const store = new LiveStateStore();
  const order: string[] = [];
  // A database that answers at once, as PGlite does from this thread: awaits alone never yield.
  const instant = {
    insert: () => ({
      values: () => ({
        onConflictDoUpdate: async () => {
          order.push('batch');
        },
      }),
    }),
  } as unknown as Db;
  const writer = new LiveStateWriter(instant, store, { now: () => at(0) } as never, { batchSize: 10 });
  for (let i = 0; i < 30; i++) store.apply(`YIELD-${i}`, { online: true }, at(0));
  setImmediate(() => order.push('io'));
  expect(await writer.flush()).toBe(30);
  expect(order.indexOf('io')).toBeGreaterThan(0);
  expect(order.indexOf('io')).toBeLessThan(order.lastIndexOf('batch'));
});
