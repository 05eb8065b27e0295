import { RELEASE_KIND, topicOf } from '@vigil/contract';
import { and, asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { openDatabase } from '../../db/database.ts';
import { alarms, deviceStock, devices } from '../../db/schema.ts';
import { describeOnDb } from '../../test/db-suites.ts';
import {
  createTestApp,
  dbTargets,
  freshPostgres,
  type DbTarget,
  type TestApp,
  type TestDb,
} from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import { addDevice, deviceWorld, linkBed, loadStock, placeBed, T } from '../devices/device-test-support.ts';

/** A care home with a sleep monitor in an occupied bed and two SOS buttons, all online; on a database of its own. */
const laneWorld = (target: DbTarget, prefix: string) => {
  const ids = { slp: `${prefix}-SLP1`, sos1: `${prefix}-SOS1`, sos2: `${prefix}-SOS2` };
  const clock = new ManualClock(new Date('2026-11-26T03:00:00Z'));
  const world = {
    ids,
    clock,
    app: undefined as unknown as TestApp,
    /** The database's address (PostgreSQL): for a second connection. */
    url: '',
  };
  let testDb: TestDb | undefined;
  let seq = 1;
  const app = () => world.app;
  const helpers = {
    runner: () => app().services.alarms.runner,
    ingest: (deviceId: string, kind: 'event' | 'telemetry' | 'status', body: Record<string, unknown>) =>
      app().services.gateway.ingest.handle(
        topicOf(deviceId, kind),
        Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, ...body })),
      ),
    alarmsOf: (deviceId: string) =>
      app().database.db.select().from(alarms).where(eq(alarms.deviceId, deviceId)).orderBy(asc(alarms.id)),
    openOf: (deviceId: string) =>
      app()
        .database.db.select()
        .from(alarms)
        .where(and(eq(alarms.deviceId, deviceId), eq(alarms.releaseKind, RELEASE_KIND.none))),
    /** 30 samples of no breathing, a second apart: the next one a second later raises BREATH_STOP. */
    breathingStops: async () => {
      for (let i = 0; i < 30; i++) {
        await helpers.ingest(ids.slp, 'telemetry', NOT_BREATHING);
        if (i < 29) clock.advance(1000);
      }
    },
    /** The sleep monitor's one alarm: BREATH_STOP raised, then released at the device; nothing open anywhere. */
    expectRaisedThenReleased: async () => {
      expect(await helpers.openOf(ids.slp)).toEqual([]);
      const [alarm, ...more] = await helpers.alarmsOf(ids.slp);
      expect(more).toEqual([]);
      expect(alarm).toMatchObject({ alertType: 'BREATH_STOP', releaseKind: RELEASE_KIND.device });
      const steps = await app().services.alarms.repo.timeline(app().database.db, alarm?.id ?? 0);
      expect(steps.map((s) => s.step)).toEqual(['raised', 'released']);
      expect(app().services.alarms.engine.openTypes(ids.slp).has('BREATH_STOP')).toBe(false);
    },
  };

  beforeAll(async () => {
    if (target === 'postgres') {
      const fresh = await freshPostgres();
      world.url = fresh.url;
      const database = await openDatabase({ url: fresh.url });
      await database.migrate();
      testDb = {
        database,
        close: async () => {
          await database.close();
          await fresh.drop();
        },
      };
    }
    world.app = await createTestApp(target, { clock, ...(testDb ? { testDb } : {}) });
    const w = await deviceWorld(app(), prefix);
    const rows = [
      { deviceId: ids.slp, deviceType: T.sleep },
      { deviceId: ids.sos1, deviceType: T.sos },
      { deviceId: ids.sos2, deviceType: T.sos },
    ];
    await loadStock(app(), w.admin, rows);
    for (const { deviceId, deviceType } of rows) await addDevice(app(), w.aHome.token, deviceId, deviceType);
    const bed = await placeBed(app(), w.aHome.id, {
      area: `${prefix} Area`,
      room: `${prefix} 1`,
      bed: `${prefix} 1-1`,
      resident: 'Lea',
    });
    await linkBed(app(), bed.bedId, ids.slp);
    await app().services.gateway.directory.load();
    // Online before the tests: their messages then raise through the writer, not with an `online` event.
    await helpers.ingest(ids.slp, 'telemetry', { ...NOT_BREATHING, rr: 14 });
    await helpers.ingest(ids.sos1, 'status', { online: true, battery: 80 });
    await helpers.ingest(ids.sos2, 'status', { online: true, battery: 80 });
    await app().services.gateway.events.drain();
    await helpers.runner().flush();
    clock.advance(1000);
  });
  afterAll(async () => {
    await world.app?.close();
    await testDb?.close();
  });
  return Object.assign(world, helpers);
};

const NOT_BREATHING = { hr: 70, rr: 0, inBed: true, asleep: true, move: 5 };

/**
 * One ordered lane per device for its alarm writes (decision 0038): an event's alarms are stored
 * in the event's own transaction, vitals, battery and the clock's alarms by the runner's writer,
 * and a release must never commit before a raise decided earlier.
 */
describe.each(dbTargets())('alarm writes of one device in order on %s', (target) => {
  const w = laneWorld(target, target === 'postgres' ? 'LNP' : 'LNG');

  it('a release button pressed at the moment a BREATH_STOP is decided leaves no open alarm', async () => {
    await w.breathingStops();
    // In one moment: the release button's event is taken, then the sample that raises. The
    // event's batch is written first, and its release is decided after the raise.
    w.clock.advance(1000);
    const release = w.ingest(w.ids.slp, 'event', { event: 'device_release' });
    void w.ingest(w.ids.slp, 'telemetry', NOT_BREATHING);
    await release;
    await w.runner().flush();
    await w.expectRaisedThenReleased();
  });
});

/**
 * The same races with the writer's transaction held at the database: a real lock on the
 * timeline table, taken from another connection, so the race is the same on every run. A
 * second connection is what that needs, hence PostgreSQL.
 */
describeOnDb('postgres', 'alarm writes of one device in order, a write held at a lock, on %s', () => {
  const w = laneWorld('postgres', 'LANE');
  const { ids } = w;
  const runner = () => w.runner();

  /** Holds every alarm write that reaches the timeline until `free` is called. */
  const holdTimeline = async () => {
    const client = new pg.Client({ connectionString: w.url });
    await client.connect();
    await client.query('begin');
    await client.query('lock table alarm_timeline in share mode');
    const blocked = async () =>
      (
        await client.query<{ n: number }>(
          // pg_locks, not pg_stat_activity: the latter is a snapshot taken once per transaction.
          `select count(*)::int as n from pg_locks where not granted and relation = 'alarm_timeline'::regclass`,
        )
      ).rows[0]?.n ?? 0;
    return {
      /** A write is waiting for the lock. */
      untilBlocked: () => until(async () => (await blocked()) > 0, { what: 'an alarm write held at the lock' }),
      free: async () => {
        await client.query('commit');
        await client.end();
      },
    };
  };

  it('a release button pressed while a queued BREATH_STOP is being written leaves no open alarm', async () => {
    const lock = await holdTimeline();
    let release: Promise<unknown> = Promise.resolve();
    try {
      // 30 s of no breathing in an occupied bed: BREATH_STOP is decided and its write waits at the lock.
      await w.breathingStops();
      w.clock.advance(1000);
      await w.ingest(ids.slp, 'telemetry', NOT_BREATHING);
      await lock.untilBlocked();
      expect(runner().pending).toBeGreaterThan(0);
      // The resident presses the monitor's release button: the engine releases what it holds open.
      release = w.ingest(ids.slp, 'event', { event: 'device_release' });
      // Without a lane the release commits at once (releasing nothing yet); with one it waits for the raise.
      await Promise.race([
        release,
        until(() => runner().eventsWaitingForAlarmWrites > 0, { what: 'the release waiting for the raise' }),
      ]);
    } finally {
      await lock.free();
    }
    await release;
    await runner().flush();
    await w.expectRaisedThenReleased();
  });

  it('a raise for a device that left the directory before it was written is stored and counted', async () => {
    const lock = await holdTimeline();
    try {
      // One device's low battery holds the writer at the lock; the next device's waits behind it.
      await w.ingest(ids.sos1, 'status', { online: true, battery: 5 });
      await lock.untilBlocked();
      await w.ingest(ids.sos2, 'status', { online: true, battery: 4 });
      expect(runner().pending).toBe(2);
      // The second button leaves: deleted from its provider and from the stock, and the directory reads it again.
      const [stock] = await w.app.database.db.select().from(deviceStock).where(eq(deviceStock.deviceId, ids.sos2));
      await w.app.database.db.delete(devices).where(eq(devices.stockId, stock?.id ?? 0));
      await w.app.database.db.delete(deviceStock).where(eq(deviceStock.deviceId, ids.sos2));
      expect(await w.app.services.gateway.directory.refresh(ids.sos2, 0)).toBeUndefined();
    } finally {
      await lock.free();
    }
    await runner().flush();
    const [alarm] = await w.alarmsOf(ids.sos2);
    // Stored as it was decided: the provider, the device's type and the battery it reported.
    expect(alarm).toMatchObject({
      alertType: 'LOW_BATTERY',
      releaseKind: RELEASE_KIND.none,
      providerId: (await w.alarmsOf(ids.sos1))[0]?.providerId,
      deviceType: T.sos,
      detail: { percent: 4 },
    });
    const metric = await w.app.services.alarms.metrics.registry
      .getSingleMetric('vigil_alarms_of_departed_devices_total')
      ?.get();
    expect(metric?.values.find((v) => v.labels.outcome === 'stored')?.value).toBe(1);
  });
});
