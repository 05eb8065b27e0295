import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { openTestDatabase, type TestDb } from '../../../test/harness.ts';
import { Rng } from '@vigil/simulator';
import { LiveStateStore } from '../live/live-state.ts';
import { LiveStateWriter } from '../live/live-state.writer.ts';
import { DatabaseLastSeen } from '../live/shared-last-seen.ts';
import type { DeviceContext } from './device-directory.ts';
import { MISSED_INTERVALS, OFFLINE_GRACE_MS, Presence, type PresenceChange } from './presence.ts';

const contextOf = (deviceId: string): DeviceContext => ({
  deviceId,
  typeCode: 20993,
  deviceRowId: 1,
  providerId: 1,
  bedId: null,
  residentId: null,
  uploadData: false,
  reportInterval: null,
  gatewayDeviceId: null,
  roomId: null,
  areaId: null,
  caregiverId: null,
});

/** One server instance's view of presence: its own live state, writer and sweep, on the shared database. */
const instance = (testDb: TestDb, clock: ManualClock) => {
  const store = new LiveStateStore();
  const writer = new LiveStateWriter(testDb.database.db, store, clock);
  const changes: PresenceChange[] = [];
  const presence = new Presence(
    store,
    { get: contextOf },
    clock,
    (change) => changes.push(change),
    new DatabaseLastSeen(testDb.database.db),
  );
  return { store, writer, presence, changes };
};

/**
 * Two instances behind an external broker that shares each device's messages out between them
 * at random, as Mosquitto's shared subscription does: 40 devices reporting every 60 s for 20
 * minutes. An instance that happened not to get a device's heartbeats for three minutes marked
 * it offline (362 false CONNECTION alarms in 19 minutes of a drill); silence is now decided on
 * what both saw. A device that really goes silent is still marked offline.
 */
describeEachDb('presence on two instances sharing the devices’ messages (%s)', (target) => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDatabase(target);
  });
  afterAll(() => testDb?.close());

  it('raises no offline for devices heard by the other instance, and one for a device silent everywhere', async () => {
    const clock = new ManualClock(new Date('2026-11-29T01:00:00Z'));
    const a = instance(testDb, clock);
    const b = instance(testDb, clock);
    const rng = new Rng('presence-28');
    const ids = Array.from({ length: 40 }, (_, i) => `PRES-${String(i).padStart(4, '0')}`);
    // Each device's heartbeat second within the minute, so they do not all come at once.
    const offset = new Map(ids.map((id) => [id, Math.floor(rng.next() * 60)]));
    const silentFrom = 15 * 60;
    for (let second = 0; second < 20 * 60; second++) {
      for (const id of ids) {
        if (second % 60 !== offset.get(id)) continue;
        if (id === 'PRES-0000' && second >= silentFrom) continue;
        (rng.next() < 0.5 ? a : b).presence.seen(contextOf(id), clock.now());
      }
      await a.writer.flush();
      await b.writer.flush();
      await a.presence.sweep();
      await b.presence.sweep();
      clock.advance(1_000);
    }
    const offline = (i: typeof a) => i.changes.filter((c) => !c.online).map((c) => c.context.deviceId);
    // Only the device that stopped, on each instance that still had it online.
    expect(offline(a).filter((id) => id !== 'PRES-0000')).toEqual([]);
    expect(offline(b).filter((id) => id !== 'PRES-0000')).toEqual([]);
    expect([...offline(a), ...offline(b)]).toContain('PRES-0000');
    // Within its three intervals plus the time a sighting takes to be written, never before.
    const lastHeard = silentFrom - 60 + (offset.get('PRES-0000') ?? 0);
    for (const change of [...a.changes, ...b.changes].filter((c) => !c.online)) {
      const after = change.at.getTime() / 1000 - (new Date('2026-11-29T01:00:00Z').getTime() / 1000 + lastHeard);
      expect(after).toBeGreaterThan(MISSED_INTERVALS * 60);
      expect(after).toBeLessThanOrEqual(MISSED_INTERVALS * 60 + 35 + 2);
    }
  }, 120_000);

  it('announces a goodbye only when the device has not come back within the grace, here or on the other instance', async () => {
    const clock = new ManualClock(new Date('2026-11-29T02:00:00Z'));
    const a = instance(testDb, clock);
    const b = instance(testDb, clock);
    const start = clock.now().getTime();
    // Both instances had heard the devices (each device's messages are shared out between them).
    for (const id of ['BYE-BLIP', 'BYE-OTHER', 'BYE-GONE']) {
      a.presence.seen(contextOf(id), clock.now());
      b.presence.seen(contextOf(id), clock.now());
    }
    await a.writer.flush();
    await b.writer.flush();
    // A broker restart: every device's last will reaches instance A.
    clock.advance(1_000);
    for (const id of ['BYE-BLIP', 'BYE-OTHER', 'BYE-GONE']) a.presence.offline(contextOf(id), clock.now(), 'status');
    expect(a.store.get('BYE-BLIP')?.online).toBe(false);
    clock.advance(2_000);
    // Back 2 s later: one device's first message reaches A, another's reaches B only.
    a.presence.seen(contextOf('BYE-BLIP'), clock.now());
    b.presence.seen(contextOf('BYE-OTHER'), clock.now(), { battery: null }, 'message', true);
    for (let second = 0; second < OFFLINE_GRACE_MS / 1000 + 2; second++) {
      clock.advance(1_000);
      await a.writer.flush();
      await b.writer.flush();
      await a.presence.sweep();
      await b.presence.sweep();
    }
    const changes = [...a.changes, ...b.changes].filter((c) => c.at.getTime() > start);
    console.log(
      JSON.stringify([...a.changes, ...b.changes].map((c) => [c.context.deviceId, c.online, c.reason, c.at])),
    );
    expect(changes.map((c) => [c.context.deviceId, c.online, c.reason])).toEqual([['BYE-GONE', false, 'status']]);
    expect(changes[0]?.at.getTime()).toBe(start + 1_000);
    expect(a.store.get('BYE-OTHER')?.online).toBe(true);
  });

  it('announces the comeback of a device it took offline when another instance hears it', async () => {
    const clock = new ManualClock(new Date('2026-11-29T04:00:00Z'));
    const a = instance(testDb, clock);
    const b = instance(testDb, clock);
    a.presence.seen(contextOf('BACK-1'), clock.now());
    b.presence.seen(contextOf('BACK-1'), clock.now());
    await a.writer.flush();
    await b.writer.flush();
    clock.advance(1_000);
    a.presence.offline(contextOf('BACK-1'), clock.now(), 'lost');
    clock.advance(OFFLINE_GRACE_MS);
    await a.presence.sweep();
    expect(a.changes.at(-1)).toMatchObject({ online: false, reason: 'lost' });
    // Back, its status heard by B alone (B never knew it was gone).
    clock.advance(60_000);
    b.presence.seen(contextOf('BACK-1'), clock.now(), {}, 'message', true);
    const backAt = clock.now().getTime();
    for (let second = 0; second < 8; second++) {
      await b.writer.flush();
      await a.presence.sweep();
      clock.advance(1_000);
    }
    expect(a.changes.at(-1)).toMatchObject({ online: true });
    expect(a.changes.at(-1)?.at.getTime()).toBe(backAt);
    expect(a.store.get('BACK-1')?.online).toBe(true);
  });

  it('marks nobody offline while the shared times cannot be read', async () => {
    const clock = new ManualClock(new Date('2026-11-29T03:00:00Z'));
    const changes: PresenceChange[] = [];
    const errors: unknown[] = [];
    const store = new LiveStateStore();
    const presence = new Presence(
      store,
      { get: contextOf },
      clock,
      (change) => changes.push(change),
      { lagMs: 35_000, of: () => Promise.reject(new Error('Connection terminated unexpectedly')) },
      (error) => errors.push(error),
    );
    presence.seen(contextOf('PRES-DOWN'), clock.now());
    clock.advance(10 * 60_000);
    expect(await presence.sweep()).toBe(0);
    expect(changes.filter((c) => !c.online)).toEqual([]);
    expect(errors).toHaveLength(1);
  });
});
