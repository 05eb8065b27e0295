import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { openTestDatabase, type TestDb } from '../../../test/harness.ts';
import { Rng } from '@vigil/simulator';
import { LiveStateStore } from '../live/live-state.ts';
import { LiveStateWriter } from '../live/live-state.writer.ts';
import { DatabaseLastSeen } from '../live/shared-last-seen.ts';
import type { DeviceContext } from './device-directory.ts';
import { MISSED_INTERVALS, Presence, type PresenceChange } from './presence.ts';

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
