import { randomBytes } from 'node:crypto';
import { deviceCalls, facilityCalls, residentCalls, topicOf } from '@vigil/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.ts';
import { alarms, areas, beds, deviceEvents, devices, residents, rooms } from '../../../db/schema.ts';
import { createTestApp, openTestDatabase, type DbTarget, type TestApp, type TestDb } from '../../../test/harness.ts';
import { until } from '../../../test/until.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../../devices/device-test-support.ts';

const { heAddHost, heInsertDevice, heReplaceDevice, heChangProvider, deleteDevice } = deviceCalls;
const { updateBunk, userCheckIn, bunkCheckOut, updateRoom } = facilityCalls;
const { startAbsence, endAbsence } = residentCalls;

const REDIS_URL = process.env.REDIS_URL;
const target: DbTarget = process.env.DATABASE_URL ? 'postgres' : 'pglite';
/** Two instances, a busy machine: starting them is slow. */
const SLOW = 300_000;

/**
 * Every path that moves a device, a bed's occupant or a resident (decision 0040): right after the
 * call returns, the device's next message is stamped with where it is now, and so is the alarm it
 * raises — on the instance that took the call and on a second instance sharing the database and
 * Redis (no waiting for the periodic reload). Each directory is loaded before the move, so what it
 * holds is exactly what the move makes stale.
 */
describe(`a move reaches every device directory at once (${target})`, () => {
  const run = randomBytes(3).toString('hex').toUpperCase();
  const clock = new ManualClock(new Date());
  let testDb: TestDb;
  let a: TestApp;
  let b: TestApp | undefined;
  let w: DeviceWorld;
  let seq = 1;

  const apps = () => [a, ...(b ? [b] : [])];
  const loadAll = () => Promise.all(apps().map((app) => app.services.gateway.directory.load()));
  const id = (name: string) => `MV${run}-${name}`;
  /** A device message, as the broker hands it over; taken, never dropped (a dropped one would prove nothing). */
  const send = async (app: TestApp, deviceId: string, kind: 'event' | 'telemetry', body: Record<string, unknown>) => {
    const outcome = await app.services.gateway.ingest.handle(
      topicOf(deviceId, kind),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, ...body })),
    );
    expect(outcome.result).not.toBe('dropped');
  };
  const alarmsOf = (deviceId: string, type?: string) =>
    a.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, deviceId), type ? eq(alarms.alertType, type) : undefined))
      .orderBy(asc(alarms.id));
  const lastAlarm = async (deviceId: string, type: string) => (await alarmsOf(deviceId, type)).at(-1);
  const ok = <R extends { status: number; msg: string }>(res: R): R => {
    expect(res.status, res.msg).toBe(200);
    return res;
  };

  /** A bed of A-Home with a sleep monitor and, when named, a resident checked in; every directory loaded. */
  const monitoredBed = async (name: string, resident?: string) => {
    const monitor = id(name);
    await loadStock(a, w.admin, [{ deviceId: monitor, deviceType: T.sleep }]);
    await addDevice(a, w.aHome.token, monitor, T.sleep);
    const bed = await placeBed(a, w.aHome.id, {
      area: `${name} ${run} area`,
      room: `${name} room`,
      bed: `${name} bed`,
      ...(resident ? { resident } : {}),
    });
    await linkBed(a, bed.bedId, monitor);
    await loadAll();
    return { monitor, ...bed };
  };
  /** A gateway host of A-Home with an SOS button under it; every directory loaded. */
  const hostWithButton = async (name: string) => {
    const host = id(`${name}-GW`);
    const button = id(`${name}-SOS`);
    await loadStock(a, w.admin, [
      { deviceId: host, deviceType: T.gateway },
      { deviceId: button, deviceType: T.sos },
    ]);
    ok(await a.call(heAddHost, { deviceId: host }, { token: w.aHome.token }));
    ok(
      await a.call(
        heInsertDevice,
        { hostDeviceId: host, deviceId: button, deviceType: T.sos },
        { token: w.aHome.token },
      ),
    );
    await loadAll();
    return { host, button };
  };
  const dislodged = (app: TestApp, monitor: string) =>
    send(app, monitor, 'event', { event: 'mat', state: 'dislodged' });
  const press = (app: TestApp, button: string) => send(app, button, 'event', { event: 'sos' });
  /** A sleep monitor's empty bed for longer than the bed-leaving time (600 s), sample by sample. */
  const outOfBed = async (app: TestApp, monitor: string) => {
    for (let s = 0; s <= 620; s += 20) {
      await send(app, monitor, 'telemetry', { hr: 0, rr: 0, inBed: false, asleep: false, move: 0 });
      clock.advance(20_000);
    }
    await app.services.alarms.runner.flush();
  };

  beforeAll(async () => {
    testDb = await openTestDatabase(target);
    const env: Record<string, string> = REDIS_URL ? { REDIS_URL } : {};
    a = await createTestApp(target, { testDb, clock, env });
    if (REDIS_URL) b = await createTestApp(target, { testDb, clock, env });
    w = await deviceWorld(a, `Mv${run}`);
  }, SLOW);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await testDb?.close();
  }, SLOW);

  /** The same paths, with the device's message taken by `via` (the instance of the call, or the other). */
  const paths = (via: () => TestApp) => {
    /** Names of this run's objects: each instance's paths have their own. */
    const on = (name: string) => `${name}${via() === a ? 'A' : 'B'}`;
    it('a bed move: the monitor’s next alarm names its new bed and resident', async () => {
      const from = await monitoredBed(on('BM'), 'Xena');
      const to = await placeBed(a, w.aHome.id, {
        area: `${on('BMto')} ${run}`,
        room: 'to room',
        bed: 'to bed',
        resident: 'Yuri',
      });
      await loadAll();
      ok(await a.call(updateBunk, { id: to.bedId, deviceId: from.monitor, confirm: true }, { token: w.aHome.token }));
      await dislodged(via(), from.monitor);
      expect(await lastAlarm(from.monitor, 'MAT_DISLODGED')).toMatchObject({
        providerId: w.aHome.id,
        bedId: to.bedId,
        residentId: to.residentId,
      });
      const [event] = await a.database.db
        .select()
        .from(deviceEvents)
        .where(and(eq(deviceEvents.deviceId, from.monitor), eq(deviceEvents.event, 'mat')));
      expect(event).toMatchObject({ bedId: to.bedId, residentId: to.residentId });
    });

    it('a check-in: the monitor’s next alarm names the resident checked in', async () => {
      const bed = await monitoredBed(on('CI'));
      const [resident] = await a.database.db
        .insert(residents)
        .values({ providerId: w.aHome.id, name: 'Zoe', gender: 0, state: 'registered' })
        .returning();
      ok(await a.call(userCheckIn, { userId: resident?.id ?? 0, bunkId: bed.bedId }, { token: w.aHome.token }));
      await dislodged(via(), bed.monitor);
      expect(await lastAlarm(bed.monitor, 'MAT_DISLODGED')).toMatchObject({
        bedId: bed.bedId,
        residentId: resident?.id,
      });
    });

    it('a check-out: the monitor’s next alarm names no resident', async () => {
      const bed = await monitoredBed(on('CO'), 'Otto');
      ok(await a.call(bunkCheckOut, { userId: bed.residentId ?? 0 }, { token: w.aHome.token }));
      await dislodged(via(), bed.monitor);
      expect(await lastAlarm(bed.monitor, 'MAT_DISLODGED')).toMatchObject({ bedId: bed.bedId, residentId: null });
    });

    it('an absence: leaving the bed raises nothing while the resident is away, and again once back', async () => {
      const app = via();
      const bed = await monitoredBed(on('AB'), 'Abel');
      const residentId = bed.residentId ?? 0;
      await a.services.alarms.watch.load();
      await b?.services.alarms.watch.load();
      ok(await a.call(startAbsence, { userId: residentId }, { token: w.aHome.token }));
      // Another instance hears of it over the relay (tens of milliseconds; the bound is for a loaded
      // machine), never at its periodic reload 30 s later.
      await until(() => app.services.alarms.watch.absent(residentId, clock.now()), {
        timeoutMs: 5_000,
        what: 'the absence on the instance taking the samples',
      });
      await outOfBed(app, bed.monitor);
      expect(await alarmsOf(bed.monitor, 'LEAVE_BED')).toEqual([]);

      ok(await a.call(endAbsence, { userId: residentId }, { token: w.aHome.token }));
      await until(() => !app.services.alarms.watch.absent(residentId, clock.now()), {
        timeoutMs: 5_000,
        what: 'the return on the instance taking the samples',
      });
      await outOfBed(app, bed.monitor);
      expect(await alarmsOf(bed.monitor, 'LEAVE_BED')).toEqual([
        expect.objectContaining({ residentId, bedId: bed.bedId, providerId: w.aHome.id }),
      ]);
    });

    it('/he/changProvider: the button’s next alarm is the new provider’s, none the old one’s', async () => {
      const { host, button } = await hostWithButton(on('CP'));
      ok(await a.call(heChangProvider, { deviceId: host, providerId: w.bGroup.id }, { token: w.admin }));
      await press(via(), button);
      const all = await alarmsOf(button);
      expect(all.map((x) => x.providerId)).toEqual([w.bGroup.id]);
    });

    it('/he/changProvider with an alarm open: it stays pending at the old provider, the next one is the new provider’s', async () => {
      const { host, button } = await hostWithButton(on('CPO'));
      await press(via(), button);
      ok(await a.call(heChangProvider, { deviceId: host, providerId: w.bGroup.id }, { token: w.admin }));
      await press(via(), button);
      const [left, raised, ...more] = await alarmsOf(button);
      expect(more).toEqual([]);
      expect(left).toMatchObject({ providerId: w.aHome.id, count: 1, releaseKind: 2, awaitingAck: true });
      expect(raised).toMatchObject({ providerId: w.bGroup.id, count: 1, releaseKind: 0 });
    });

    it('a replaced device: the new one raises for the provider, the old one (back in stock) for none', async () => {
      const { button } = await hostWithButton(on('RP'));
      const fresh = id(`${on('RP')}-NEW`);
      await loadStock(a, w.admin, [{ deviceId: fresh, deviceType: T.sos }]);
      await loadAll();
      ok(await a.call(heReplaceDevice, { deviceId: button, newDeviceId: fresh }, { token: w.aHome.token }));
      await press(via(), fresh);
      await press(via(), button);
      expect(await alarmsOf(fresh)).toEqual([expect.objectContaining({ providerId: w.aHome.id })]);
      expect((await alarmsOf(button)).map((x) => x.providerId)).toEqual([null]);
    });

    it('delete and re-add elsewhere: the device’s alarm, open before, stays behind; the next is the new provider’s', async () => {
      const button = id(on('DR'));
      await loadStock(a, w.admin, [{ deviceId: button, deviceType: T.sos }]);
      await addDevice(a, w.aHome.token, button, T.sos);
      await loadAll();
      await press(via(), button);
      ok(await a.call(deleteDevice, { deviceId: button }, { token: w.aHome.token }));
      await addDevice(a, w.bGroup.token, button, T.sos);
      await press(via(), button);
      expect((await alarmsOf(button)).map((x) => [x.providerId, x.releaseKind, x.awaitingAck])).toEqual([
        [w.aHome.id, 2, true],
        [w.bGroup.id, 0, false],
      ]);
    });

    it('a device added from stock: its first alarm is its provider’s', async () => {
      const button = id(on('ST'));
      await loadStock(a, w.admin, [{ deviceId: button, deviceType: T.sos }]);
      await loadAll();
      expect(via().services.gateway.directory.get(button)).toMatchObject({ providerId: null });
      await addDevice(a, w.aHome.token, button, T.sos);
      await press(via(), button);
      expect((await alarmsOf(button)).map((x) => x.providerId)).toEqual([w.aHome.id]);
    });

    it('a room renamed and moved to another floor: the next alarm names the new place (read when shown)', async () => {
      const bed = await monitoredBed(on('PL'), 'Paul');
      const { db } = a.database;
      const [bedRow] = await db.select().from(beds).where(eq(beds.id, bed.bedId));
      const [room] = await db
        .select()
        .from(rooms)
        .where(eq(rooms.id, bedRow?.roomId ?? 0));
      const [floor] = await db
        .select()
        .from(areas)
        .where(eq(areas.id, room?.floorId ?? 0));
      const [upstairs] = await db
        .insert(areas)
        .values({ providerId: w.aHome.id, parentId: floor?.parentId, name: 'Upstairs' })
        .returning();
      ok(
        await a.call(
          updateRoom,
          { id: room?.id ?? 0, name: 'Garden room', floorId: upstairs?.id ?? 0 },
          { token: w.aHome.token },
        ),
      );
      await dislodged(via(), bed.monitor);
      const alarm = await lastAlarm(bed.monitor, 'MAT_DISLODGED');
      const view = await via().services.alarms.alarms.view(alarm?.id ?? 0);
      expect(view).toMatchObject({ roomName: 'Garden room', floorName: 'Upstairs', alarm: { bedId: bed.bedId } });
    });
  };

  describe('on the instance that took the call', () => paths(() => a));

  it('an event stored before a move’s announcement arrives is stamped as the database has it', async () => {
    const button = id('UN');
    await loadStock(a, w.admin, [{ deviceId: button, deviceType: T.sos }]);
    await addDevice(a, w.aHome.token, button, T.sos);
    await loadAll();
    // Moved by a transaction whose announcement has not reached this directory (the relay is slow or down).
    await a.database.db.update(devices).set({ providerId: w.bGroup.id }).where(eq(devices.deviceId, button));
    expect(a.services.gateway.directory.get(button)?.providerId).toBe(w.aHome.id);
    await press(a, button);
    expect((await alarmsOf(button)).map((x) => x.providerId)).toEqual([w.bGroup.id]);
    // The storing transaction's read corrected the directory too.
    expect(a.services.gateway.directory.get(button)?.providerId).toBe(w.bGroup.id);
  });

  describe.skipIf(!REDIS_URL)(
    `on a second instance sharing the database and Redis${REDIS_URL ? '' : ' — skipped: REDIS_URL is not set'}`,
    () => {
      paths(() => b as TestApp);

      it('reaches the other instance’s directory by itself, without waiting for a message or a reload', async () => {
        const { host, button } = await hostWithButton('RL');
        const other = (b as TestApp).services.gateway.directory;
        const started = Date.now();
        ok(await a.call(heChangProvider, { deviceId: host, providerId: w.bGroup.id }, { token: w.admin }));
        await until(() => other.get(button)?.providerId === w.bGroup.id, {
          timeoutMs: 5_000,
          intervalMs: 2,
          what: 'the move on the second instance',
        });
        console.log(`device move relayed to the second instance's directory in ${Date.now() - started} ms`);
      });
    },
  );
});
