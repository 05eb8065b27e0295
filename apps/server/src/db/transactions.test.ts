import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '../core/app-error.ts';
import type { PublishedEvent } from '../core/events.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { describeEachDb } from '../test/db-suites.ts';
import { eventOutbox, settings } from './schema.ts';
import { RELAY_GRACE_MS, Replan } from './transactions.ts';

// Two catalogued events whose payloads a test can fill freely (no module reacts to them here).
const CHANGED = 'device.contextChanged';
const OTHER = 'branding.changed';

describeEachDb('transactions with events after commit (%s)', (target) => {
  let app: TestApp;
  let seen: PublishedEvent[] = [];
  beforeAll(async () => {
    app = await createTestApp(target);
    app.services.events.subscribe((event) => seen.push(event), [CHANGED, OTHER]);
  });
  afterAll(() => app?.close());
  const reset = () => {
    seen = [];
  };
  const outbox = (type: string) => app.database.db.select().from(eventOutbox).where(eq(eventOutbox.type, type));

  it('publishes the events of a committed change after the commit, in order, and marks them published', async () => {
    reset();
    let publishedDuringWork = -1;
    const value = await app.services.transactions.run(async (tx, emit) => {
      await tx.insert(settings).values({ key: 'test.a', value: 1 });
      emit({ type: CHANGED, providerId: 7, payload: { deviceIds: ['1'] } });
      emit({ type: OTHER, providerId: null, payload: { platformName: '2' } });
      publishedDuringWork = seen.length;
      return 'done';
    });
    expect(value).toBe('done');
    expect(publishedDuringWork).toBe(0);
    expect(seen.map((e) => [e.type, e.providerId, e.payload])).toEqual([
      [CHANGED, 7, { deviceIds: ['1'] }],
      [OTHER, null, { platformName: '2' }],
    ]);
    expect(seen[0]?.id).toBeLessThan(seen[1]?.id ?? 0);
    const rows = await outbox(CHANGED);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.publishedAt).not.toBeNull();
  });

  it('publishes and stores nothing when the change rolls back', async () => {
    reset();
    await expect(
      app.services.transactions.run(async (tx, emit) => {
        await tx.insert(settings).values({ key: 'test.rolledBack', value: 1 });
        emit({ type: CHANGED, providerId: 1, payload: { deviceIds: ['ROLLED-BACK'] } });
        throw new Error('refused halfway');
      }),
    ).rejects.toThrow('refused halfway');
    expect(seen).toEqual([]);
    expect((await outbox(CHANGED)).some((r) => JSON.stringify(r.payload).includes('ROLLED-BACK'))).toBe(false);
    expect(await app.database.db.select().from(settings).where(eq(settings.key, 'test.rolledBack'))).toEqual([]);
  });

  it('publishes once what the attempt that committed emitted, after a replan', async () => {
    reset();
    let attempt = 0;
    await app.services.transactions.run(async (_tx, emit) => {
      attempt++;
      emit({ type: CHANGED, providerId: 2, payload: { deviceIds: [`ATTEMPT${attempt}`] } });
      if (attempt === 1) throw new Replan();
    });
    expect(seen.map((e) => e.payload)).toEqual([{ deviceIds: ['ATTEMPT2'] }]);
  });

  it('answers busy when every attempt must be replanned', async () => {
    const refusal = await app.services.transactions
      .run(async () => {
        throw new Replan();
      })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).key).toBe('busy');
  });

  it('keeps the change and the other subscribers when one subscriber throws', async () => {
    reset();
    const reported: string[] = [];
    app.services.events.reportErrorsTo((error) => reported.push(String(error)));
    const unsubscribe = app.services.events.subscribeAll(() => {
      throw new Error('broken subscriber');
    });
    try {
      await app.services.transactions.run(async (tx, emit) => {
        await tx.insert(settings).values({ key: 'test.kept', value: 1 });
        emit({ type: CHANGED, providerId: 3, payload: { deviceIds: [] } });
      });
    } finally {
      unsubscribe();
    }
    expect(reported).toEqual(['Error: broken subscriber']);
    expect(seen).toHaveLength(1);
    expect(await app.database.db.select().from(settings).where(eq(settings.key, 'test.kept'))).toHaveLength(1);
  });

  it('publishes at start what a crash left between commit and publish', async () => {
    reset();
    const crashed = new Date(app.clock.now().getTime() - RELAY_GRACE_MS - 1000);
    await app.database.db.insert(eventOutbox).values([
      { type: CHANGED, providerId: 4, payload: { deviceIds: ['LEFT1'] }, createdAt: crashed },
      // A name an older version stored and this one no longer has: marked, never published.
      { type: 'test.retired', providerId: 4, payload: { left: 0 }, createdAt: crashed },
      { type: CHANGED, providerId: 4, payload: { deviceIds: ['LEFT2'] }, createdAt: crashed },
    ]);
    expect(await app.services.transactions.relayPending(1)).toBe(3);
    expect(seen.map((e) => e.payload)).toEqual([{ deviceIds: ['LEFT1'] }, { deviceIds: ['LEFT2'] }]);
    expect(await app.database.db.select().from(eventOutbox).where(isNull(eventOutbox.publishedAt))).toEqual([]);
    expect(await app.services.transactions.relayPending()).toBe(0);
  });

  it('leaves a running instance its just-committed events, and never relays a row twice when instances start together', async () => {
    reset();
    const crashed = new Date(app.clock.now().getTime() - RELAY_GRACE_MS - 1000);
    await app.database.db.insert(eventOutbox).values([
      { type: CHANGED, providerId: 5, payload: { deviceIds: ['FRESH'] }, createdAt: app.clock.now() },
      ...Array.from({ length: 20 }, (_, i) => ({
        type: CHANGED,
        providerId: 5,
        payload: { deviceIds: [`OLD${i}`] },
        createdAt: crashed,
      })),
    ]);
    const [a, b] = await Promise.all([
      app.services.transactions.relayPending(3),
      app.services.transactions.relayPending(3),
    ]);
    expect(a + b).toBe(20);
    expect(seen).toHaveLength(20);
    expect(new Set(seen.map((e) => e.id)).size).toBe(20);
    const left = await app.database.db.select().from(eventOutbox).where(isNull(eventOutbox.publishedAt));
    expect(left.map((r) => r.payload)).toEqual([{ deviceIds: ['FRESH'] }]);
    await app.database.db.delete(eventOutbox).where(isNull(eventOutbox.publishedAt));
  });
});
