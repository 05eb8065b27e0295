import { randomBytes } from 'node:crypto';
import { topicOf } from '@vigil/contract';
import { and, asc, eq } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { alarms } from '../../db/schema.ts';
import { createTestApp, openTestDatabase, type TestApp, type TestDb } from '../../test/harness.ts';
import { ExternalBroker } from '../gateway/testing.ts';
import { addDevice, deviceWorld, linkBed, loadStock, placeBed, T } from '../devices/device-test-support.ts';

const { MQTT_URL, REDIS_URL } = process.env;
const missing = ['DATABASE_URL', 'MQTT_URL', 'REDIS_URL'].filter((name) => !process.env[name]);

/** Breathing, then a stop; movement 40 keeps every other sleep-monitor condition away. */
const NORMAL = { hr: 70, rr: 14, inBed: true, asleep: true, move: 40 };
const STOPPED = { ...NORMAL, rr: 0 };

/**
 * Issue 21, hole 3: two instances on PostgreSQL, Mosquitto (one `$share` group: the broker hands
 * the monitor's samples to them in turn) and Redis, one sleep monitor in an occupied bed. Time is
 * the samples' own (one simulated clock for both instances and the device, a second a sample), so
 * a trial takes milliseconds: each sample is published, taken by one instance, and only then is
 * the clock moved on. A breathing stop of 30 s is one BREATH_STOP; a normal sample seen by either
 * instance breaks the spell, so 20 s + 1 normal + 20 s raises nothing.
 */
describe.skipIf(missing.length > 0)(
  `breathing-stop spells across two instances${missing.length ? ` — skipped: ${missing.join(', ')} not set` : ''}`,
  () => {
    const run = randomBytes(3).toString('hex');
    const DEVICE = `SPELL-${run}`.toUpperCase();
    const SENSOR = `ROOM-${run}`.toUpperCase();
    const clock = new ManualClock(new Date());
    let testDb: TestDb;
    let apps: TestApp[] = [];
    let device: MqttClient;
    let seq = 0;
    /** The waiters for the samples on their way: each learns which instance took it. */
    const waiters = new Map<number, (instance: number) => void>();

    const breathStops = () =>
      testDb.database.db
        .select()
        .from(alarms)
        .where(and(eq(alarms.deviceId, DEVICE), eq(alarms.alertType, 'BREATH_STOP')))
        .orderBy(asc(alarms.id));

    /** One sample a second later; resolves with the instance that took it. */
    const sample = async (vitals: typeof NORMAL): Promise<number> => {
      clock.advance(1000);
      const mine = ++seq;
      const taken = new Promise<number>((resolve) => waiters.set(mine, resolve));
      await device.publishAsync(
        topicOf(DEVICE, 'telemetry'),
        JSON.stringify({ ts: clock.now().getTime() / 1000, seq: mine, ...vitals }),
      );
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`sample ${mine} not taken by either instance`)), 10_000).unref(),
      );
      return Promise.race([taken, timeout]);
    };
    const samples = async (count: number, vitals: typeof NORMAL): Promise<number[]> => {
      const by: number[] = [];
      for (let i = 0; i < count; i++) by.push(await sample(vitals));
      return by;
    };
    /** How many samples an instance judged on the shared spells, and on its own (Redis not answering). */
    const judged = async (app: TestApp) => {
      const metric = await app.services.alarms.metrics.registry
        .getSingleMetric('vigil_alarm_spell_samples_total')
        ?.get();
      const of = (judged: string) => metric?.values.find((v) => v.labels.judged === judged)?.value ?? 0;
      return { shared: of('shared'), local: of('local') };
    };
    /** Both instances have decided and stored what their samples so far raise or release. */
    const settled = () => Promise.all(apps.map((app) => app.services.alarms.runner.flush()));

    beforeAll(async () => {
      testDb = await openTestDatabase('postgres');
      const env = (name: string) => ({
        MQTT_URL: MQTT_URL ?? '',
        MQTT_SHARE_GROUP: `spells-${run}`,
        MQTT_CLIENT_ID: `vigil-spells-${run}-${name}`,
        REDIS_URL: REDIS_URL ?? '',
      });
      apps = [
        await createTestApp('postgres', { testDb, clock, env: env('a') }),
        await createTestApp('postgres', { testDb, clock, env: env('b') }),
      ];
      const [a] = apps;
      if (!a) throw new Error('no instance');
      const w = await deviceWorld(a, `Sp${run}`);
      await loadStock(a, w.admin, [
        { deviceId: DEVICE, deviceType: T.sleep },
        { deviceId: SENSOR, deviceType: T.infrared },
      ]);
      await addDevice(a, w.aHome.token, DEVICE, T.sleep);
      await addDevice(a, w.aHome.token, SENSOR, T.infrared);
      const bed = await placeBed(a, w.aHome.id, {
        area: `Sp ${run}`,
        room: `Sp ${run} 1`,
        bed: `Sp ${run} 1-1`,
        resident: 'Ruth',
      });
      await linkBed(a, bed.bedId, DEVICE);
      for (const [i, app] of apps.entries()) {
        await app.services.gateway.directory.load();
        await app.services.alarms.watch.load();
        app.services.gateway.feed.subscribe(
          (item) => {
            if (item.kind !== 'vitals' || item.context.deviceId !== DEVICE) return;
            waiters.get(item.telemetry.seq)?.(i);
            waiters.delete(item.telemetry.seq);
          },
          ['vitals'],
        );
      }
      device = await connectAsync(MQTT_URL ?? '', { clientId: DEVICE, reconnectPeriod: 0 });
    }, 120_000);

    afterAll(async () => {
      await device?.endAsync(true);
      for (const app of apps) {
        const broker = app.services.gateway.broker;
        if (broker instanceof ExternalBroker) await broker.endSession();
      }
      for (const app of apps) await app.close();
      await testDb?.close();
    }, 120_000);

    it('says on /readyz that duration alarms are judged on shared spells', async () => {
      for (const app of apps) {
        const ready = await app.app.inject({ url: '/readyz' });
        expect(ready.json()).toMatchObject({ spells: 'shared' });
      }
    });

    it('30 s of breathing stop raise BREATH_STOP once, whichever instance counts; breathing again releases it', async () => {
      await samples(3, NORMAL);
      const start = clock.now().getTime() + 1000;
      const by = await samples(40, STOPPED);
      // The broker shared the spell out: each instance took part of it.
      expect(new Set(by).size).toBe(2);
      await settled();
      const raised = await breathStops();
      expect(raised).toHaveLength(1);
      const [alarm] = raised;
      expect(alarm?.startedAt.getTime()).toBe(start);
      const held = ((alarm?.raisedAt.getTime() ?? 0) - start) / 1000;
      expect(held).toBeGreaterThanOrEqual(30);
      expect(held).toBeLessThanOrEqual(31);
      expect(alarm?.count).toBe(1);
      await samples(1, NORMAL);
      await settled();
      const [released] = await breathStops();
      expect(released?.releaseKind).not.toBe(0);
      const steps = await apps[0]?.services.alarms.repo.timeline(testDb.database.db, alarm?.id ?? 0);
      expect(steps?.map((s) => s.step)).toEqual(['raised', 'released']);
    }, 60_000);

    it('a normal sample taken by either instance breaks the spell: 0 false alarms in 100 trials', async () => {
      const before = (await breathStops()).length;
      const breaksTakenBy = [0, 0];
      for (let trial = 0; trial < 100; trial++) {
        await samples(2, NORMAL);
        await samples(20, STOPPED);
        const taker = await sample(NORMAL);
        breaksTakenBy[taker] = (breaksTakenBy[taker] ?? 0) + 1;
        await samples(20, STOPPED);
        await settled();
        const falseAlarms = (await breathStops()).length - before;
        // Stop at the first: every later trial would only repeat it.
        if (falseAlarms > 0)
          expect.fail(`trial ${trial + 1}: ${falseAlarms} BREATH_STOP raised (the break went to instance ${taker})`);
      }
      await samples(1, NORMAL);
      await settled();
      expect((await breathStops()).length - before).toBe(0);
      // Either instance took breaks: the spell is one, whoever sees its samples.
      expect(breaksTakenBy[0]).toBeGreaterThan(10);
      expect(breaksTakenBy[1]).toBeGreaterThan(10);
      // Every sample was judged on the shared spells, none on one instance's share alone.
      for (const app of apps) {
        const { shared, local } = await judged(app);
        expect(shared).toBeGreaterThan(1000);
        expect(local).toBe(0);
      }
    }, 300_000);

    it('an empty room is judged on the motion every instance stored: NO_MOTION only after 12 h without any', async () => {
      const [a, b] = apps;
      if (!a || !b) throw new Error('two instances');
      const noMotion = () =>
        testDb.database.db
          .select()
          .from(alarms)
          .where(and(eq(alarms.deviceId, SENSOR), eq(alarms.alertType, 'NO_MOTION')));
      /** A motion event as the broker hands it to one instance (the event connections share it out the same way). */
      const motion = async (app: TestApp) => {
        const outcome = await app.services.gateway.ingest.handle(
          topicOf(SENSOR, 'event'),
          Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: ++seq, event: 'motion' })),
        );
        expect(outcome.result).toBe('stored');
      };
      /** Both instances' engines tick (once a second) at the clock's time, and store what they decide. */
      const ticked = async () => {
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        await settled();
      };
      await motion(b);
      clock.advance(6 * 3_600_000);
      const last = clock.now();
      await motion(a);
      // 13 h after instance b's last motion, 7 h after instance a's.
      clock.advance(7 * 3_600_000);
      await ticked();
      expect(await noMotion()).toEqual([]);
      // 12 h after the last motion anywhere.
      clock.advance(5 * 3_600_000 + 1_000);
      await ticked();
      const raised = await noMotion();
      expect(raised).toHaveLength(1);
      expect(raised[0]?.startedAt.getTime()).toBe(last.getTime());
    }, 60_000);
  },
);
