import { alarmCalls, RELEASE_KIND, topicOf } from '@vigil/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { backgroundPacer } from '../core/background-pacer.ts';
import type { PublishedEvent } from '../core/events.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../modules/devices/device-test-support.ts';
import { describeEachDb } from '../test/db-suites.ts';
import { createTestApp, openTestDatabase, type TestApp, type TestDb } from '../test/harness.ts';
import { until } from '../test/until.ts';
import { OutboxMetrics } from './outbox-metrics.ts';
import { OutboxSweep } from './outbox-sweep.ts';
import { alarms, eventOutbox } from './schema.ts';
import { RELAY_GRACE_MS } from './transactions.ts';

const HOUR = 3_600_000;

/** Issue 21, hole 5: the outbox is swept while instances run, purged, and its bookkeeping never fails a change. */
describeEachDb('the event outbox sweep (%s)', (target) => {
  let testDb: TestDb;
  /** Two instances on one database, sweeping every second. */
  let a: TestApp;
  let b: TestApp | undefined;
  let w: DeviceWorld;
  const clock = new ManualClock(new Date());
  const seenA: PublishedEvent[] = [];
  const seenB: PublishedEvent[] = [];
  const db = () => a.database.db;

  beforeAll(async () => {
    testDb = await openTestDatabase(target);
    const env = { OUTBOX_SWEEP_SECONDS: '1' };
    a = await createTestApp(target, { testDb, clock, env });
    b = await createTestApp(target, { testDb, clock, env });
    a.services.events.subscribeAll((e) => seenA.push(e));
    b.services.events.subscribeAll((e) => seenB.push(e));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await testDb?.close();
  });

  it('publishes what a dead instance committed and never marked, once its grace period is over, on one instance only', async () => {
    // What an instance killed between its commit and its mark leaves behind.
    const left = await db()
      .insert(eventOutbox)
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          type: 'device.contextChanged',
          providerId: 1,
          payload: { deviceIds: [`LEFT${i}`] },
          createdAt: clock.now(),
        })),
      )
      .returning({ id: eventOutbox.id });
    const ids = left.map((r) => r.id);
    const relayed = () =>
      [...seenA, ...seenB].flatMap((e) =>
        e.type === 'device.contextChanged' && e.payload.deviceIds[0]?.startsWith('LEFT') ? [e] : [],
      );
    // Within the grace period the committing instance may still mark them: two sweeps leave them.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(relayed()).toEqual([]);

    clock.advance(RELAY_GRACE_MS + 1_000);
    await until(() => relayed().length === ids.length, { what: 'the left events relayed', timeoutMs: 5_000 });
    // More sweeps on both instances publish none of them again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(
      relayed()
        .map((e) => e.id)
        .sort((x, y) => x - y),
    ).toEqual(ids);
    expect(relayed().map((e) => e.payload.deviceIds[0])).toEqual(expect.arrayContaining(ids.map((_, i) => `LEFT${i}`)));
    const unmarked = await db()
      .select()
      .from(eventOutbox)
      .where(and(inArray(eventOutbox.id, ids), isNull(eventOutbox.publishedAt)));
    expect(unmarked).toEqual([]);
    const figures = (await a.metrics.registry.metrics()) + (await (b as TestApp).metrics.registry.metrics());
    const counted = [...figures.matchAll(/^vigil_outbox_relayed_total (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
    expect(counted).toBe(ids.length);
  });

  it('answers 200 to a handling whose published mark fails: the alarm is handled, the failure logged, counted and marked later', async () => {
    // One instance from here: a second one would rightly relay what this one could not mark.
    await b?.close();
    b = undefined;
    w = await deviceWorld(a, 'Obx');
    await loadStock(a, w.admin, [{ deviceId: 'OBX-SOS1', deviceType: T.sos }]);
    await addDevice(a, w.aHome.token, 'OBX-SOS1', T.sos);
    await a.services.gateway.directory.load();
    await a.services.gateway.ingest.handle(
      topicOf('OBX-SOS1', 'event'),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: 1, event: 'sos' })),
    );
    const [alarm] = await db().select().from(alarms).where(eq(alarms.deviceId, 'OBX-SOS1'));
    expect(alarm?.releaseKind).toBe(RELEASE_KIND.none);

    // The database refuses to mark outbox rows published (a row trigger), as a failing connection would.
    await db().execute(sql`create table outbox_fault (armed boolean not null)`);
    await db().execute(sql`insert into outbox_fault values (true)`);
    await db().execute(sql`
      create function outbox_fault() returns trigger language plpgsql as $$
      begin
        if (select armed from outbox_fault) then
          raise exception 'injected fault: outbox row not marked';
        end if;
        return new;
      end $$`);
    await db().execute(
      sql`create trigger outbox_fault before update on event_outbox for each row execute function outbox_fault()`,
    );

    const warned: string[] = [];
    a.services.log.attach({ info: () => undefined, warn: (_o, msg) => warned.push(msg), error: () => undefined });
    const handled = () => seenA.filter((e) => e.type === 'alarm.handled');
    const res = await a.call(
      alarmCalls.alarmRelieve,
      { id: alarm?.id ?? 0, reason: 'CHECKED' },
      { token: w.aHome.token },
    );
    expect([res.httpStatus, res.status]).toEqual([200, 200]);
    const [after] = await db()
      .select()
      .from(alarms)
      .where(eq(alarms.id, alarm?.id ?? 0));
    expect(after?.releaseKind).toBe(RELEASE_KIND.software);
    // Consoles and the engine heard of it: publishing came before the mark.
    expect(handled()).toHaveLength(1);
    const eventId = handled()[0]?.id ?? 0;
    const [row] = await db().select().from(eventOutbox).where(eq(eventOutbox.id, eventId));
    expect(row?.publishedAt).toBeNull();
    expect(warned).toContain('outbox events published but not marked; the sweep marks them again');
    const figures = await a.metrics.registry.metrics();
    expect(Number(/^vigil_outbox_bookkeeping_failures_total\{op="mark"\} (\d+)$/m.exec(figures)?.[1])).toBeGreaterThan(
      0,
    );
    expect(Number(/^vigil_outbox_unmarked (\d+)$/m.exec(figures)?.[1])).toBeGreaterThan(0);

    // The database takes marks again: the next sweep marks it, and does not publish it a second
    // time even though its grace period is over by then.
    await db().execute(sql`update outbox_fault set armed = false`);
    clock.advance(RELAY_GRACE_MS + 1_000);
    await until(
      async () => !!(await db().select().from(eventOutbox).where(eq(eventOutbox.id, eventId)))[0]?.publishedAt,
      { what: 'the handling event marked by the sweep' },
    );
    await a.services.outboxSweep.relay();
    expect(handled()).toHaveLength(1);
    expect(await a.metrics.registry.metrics()).toMatch(/^vigil_outbox_unmarked 0$/m);
  });

  it('purges published events past the retention period, a bounded statement at a time, and keeps every unpublished one', async () => {
    // The app's own sweep would publish the old unpublished rows: this test's sweep runs alone.
    await a.services.outboxSweep.stop();
    const now = clock.now().getTime();
    const at = (ms: number) => new Date(now - ms);
    const rows = (n: number, kind: string, createdAt: Date, publishedAt: Date | null) =>
      Array.from({ length: n }, () => ({
        type: `test.purge.${kind}`,
        providerId: 1,
        payload: {},
        createdAt,
        publishedAt,
      }));
    await db()
      .insert(eventOutbox)
      .values([
        ...rows(5, 'old', at(3 * HOUR), at(3 * HOUR)),
        ...rows(2, 'recent', at(2 * HOUR), at(10 * 60_000)),
        ...rows(3, 'unpublished', at(5 * HOUR), null),
      ]);
    const metrics = new OutboxMetrics();
    const sweep = new OutboxSweep(
      {
        db: db(),
        clock,
        transactions: a.services.transactions,
        pacer: backgroundPacer(a.database.kind),
        metrics,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      },
      { everyMs: 60_000, retentionMs: HOUR, purgeBatch: 2 },
    );
    expect(await sweep.purge()).toBe(5);
    const kept = await db()
      .select({ type: eventOutbox.type })
      .from(eventOutbox)
      .where(sql`${eventOutbox.type} like 'test.purge.%'`);
    expect(kept.map((r) => r.type).sort()).toEqual([
      'test.purge.recent',
      'test.purge.recent',
      'test.purge.unpublished',
      'test.purge.unpublished',
      'test.purge.unpublished',
    ]);
    expect(await metrics.registry.metrics()).toMatch(/^vigil_outbox_purged_total \d+$/m);
    // Nothing older is left to purge.
    expect(await sweep.purge()).toBe(0);
  });
});
