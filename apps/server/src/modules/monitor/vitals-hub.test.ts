import type { LiveVitals, Telemetry } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { DeviceContext } from '../gateway/index.ts';
import { DeviceFeed, LiveStateStore } from '../gateway/testing.ts';
import { VitalsHub, type VitalsFollower } from './vitals-hub.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const SLEEP = 49;
const SOS = 20993;

const context = (deviceId: string, residentId: number | null, typeCode = SLEEP): DeviceContext => ({
  deviceId,
  typeCode,
  deviceRowId: 1,
  providerId: 1,
  bedId: residentId,
  residentId,
  uploadData: false,
  reportInterval: null,
  gatewayDeviceId: null,
  roomId: null,
  areaId: null,
  caregiverId: null,
});

/** A hub on a feed and a directory the test fills by hand; ticks only when the test says. */
const world = () => {
  const clock = new ManualClock(new Date('2026-03-01T08:00:00Z'));
  const feed = new DeviceFeed();
  const contexts = new Map<string, DeviceContext>();
  const directory = {
    version: 0,
    get: (id: string) => contexts.get(id),
    all: () => contexts.values(),
  };
  const place = (...list: DeviceContext[]) => {
    for (const c of list) contexts.set(c.deviceId, c);
    directory.version++;
  };
  const live = new LiveStateStore();
  const hub = new VitalsHub({ feed, directory, live, clock, log: quiet, tickMs: 0 });
  hub.start();
  let seq = 0;
  const sample = (deviceId: string, values: Partial<Telemetry> = {}) => {
    clock.advance(100);
    const c = contexts.get(deviceId);
    if (!c) throw new Error(`no device ${deviceId}`);
    const telemetry: Telemetry = {
      ts: clock.now().getTime() / 1000,
      seq: ++seq,
      hr: 60,
      rr: 14,
      inBed: true,
      asleep: false,
      move: 0,
      ...values,
    };
    feed.publish({ kind: 'vitals', context: c, receivedAt: clock.now(), telemetry });
  };
  const follower = () => {
    const frames: LiveVitals[][] = [];
    const f: VitalsFollower & { frames: LiveVitals[][] } = { frames, send: (rows) => frames.push(rows) };
    return f;
  };
  return { clock, feed, hub, place, sample, follower, contexts, directory, live };
};

describe('the vitals hub', () => {
  it('sends a new follower its rows at the next tick, then only rows that changed, never an empty frame', () => {
    const w = world();
    w.place(context('SLP-1', 1), context('SLP-2', 2), context('SLP-3', 3));
    w.sample('SLP-1', { hr: 61 });
    const f = w.follower();
    w.hub.follow(f, [1, 2, 99]);
    expect(f.frames).toEqual([]);
    w.hub.tick();
    // Resident 2's monitor has said nothing yet: offline, nothing known. Resident 99 has no monitor.
    expect(f.frames).toEqual([
      [
        expect.objectContaining({ userId: 1, deviceId: 'SLP-1', online: true, heartRate: 61, inBed: true }),
        {
          userId: 2,
          deviceId: 'SLP-2',
          online: false,
          inBed: null,
          heartRate: null,
          breathRate: null,
          move: null,
          ts: null,
          upgrading: false,
        },
      ],
    ]);
    w.hub.tick();
    expect(f.frames).toHaveLength(1);

    // Many samples between two ticks make one frame with the latest; an unfollowed device none.
    w.sample('SLP-1', { hr: 70 });
    w.sample('SLP-1', { hr: 72 });
    w.sample('SLP-3', { hr: 90 });
    w.hub.tick();
    expect(f.frames).toHaveLength(2);
    expect(f.frames[1]).toEqual([expect.objectContaining({ userId: 1, heartRate: 72 })]);
    w.hub.tick();
    expect(f.frames).toHaveLength(2);
  });

  it('tells of a monitor going offline at its goodbye, as the live state says, without its stale vitals', () => {
    const w = world();
    w.place(context('SLP-1', 1));
    w.live.apply('SLP-1', { online: true }, w.clock.now());
    w.sample('SLP-1', { hr: 66 });
    const f = w.follower();
    w.hub.follow(f, [1]);
    w.hub.tick();
    // A lost connection: Presence takes the live state offline at once (the offline event waits 45 s).
    w.clock.advance(1_000);
    w.live.apply('SLP-1', { online: false }, w.clock.now());
    w.hub.tick();
    expect(f.frames[1]).toEqual([
      expect.objectContaining({ userId: 1, online: false, heartRate: null, inBed: null, ts: expect.any(Number) }),
    ]);
    // The offline event announced after the grace changes nothing more; nor does a late `online`
    // announcement of the earlier connection.
    const announce = (event: 'online' | 'offline', at: Date) =>
      w.feed.publish({
        kind: 'event',
        event: {
          deviceId: 'SLP-1',
          event,
          seq: null,
          occurredAt: at,
          receivedAt: at,
          detail: {},
          providerId: 1,
          deviceRowId: 1,
          bedId: 1,
          residentId: 1,
        },
      });
    announce('online', new Date(w.clock.now().getTime() - 1_000));
    w.clock.advance(45_000);
    announce('offline', new Date(w.clock.now().getTime() - 45_000));
    w.hub.tick();
    expect(f.frames).toHaveLength(2);
    expect(w.hub.vitalsOf(1, 'SLP-1').online).toBe(false);
    // Back: online at once, with the next sample.
    w.live.apply('SLP-1', { online: true }, w.clock.now());
    w.hub.tick();
    expect(f.frames[2]).toEqual([expect.objectContaining({ userId: 1, online: true })]);
  });

  it('tells of a firmware upgrade from the monitor’s status until the restart’s status ends it', () => {
    const w = world();
    const c = context('SLP-1', 1);
    w.place(c);
    w.sample('SLP-1');
    const status = (body: Record<string, unknown>, online = true) => {
      w.clock.advance(100);
      w.feed.publish({
        kind: 'status',
        context: c,
        status: { ts: w.clock.now().getTime() / 1000, online, ...body },
        state: {
          online,
          lastSeenAt: w.clock.now(),
          battery: null,
          signal: null,
          firmwareVersion: null,
          hardwareVersion: null,
          mat: null,
        },
      });
    };
    const upgrading = () => w.hub.vitalsOf(1, 'SLP-1').upgrading;
    expect(upgrading()).toBe(false);
    status({ ota: { id: 7, state: 'downloading', progress: 30 } });
    expect(upgrading()).toBe(true);
    // Samples while it downloads, and the restart to install, keep the pause shown.
    w.sample('SLP-1');
    status({ ota: { id: 7, state: 'installing' } });
    status({}, false);
    expect(upgrading()).toBe(true);
    expect(w.hub.vitalsOf(1, 'SLP-1').online).toBe(false);
    status({ fw: '2.0.0' });
    expect(upgrading()).toBe(false);
    status({ ota: { id: 8, state: 'failed', error: 'md5 mismatch' } });
    expect(upgrading()).toBe(false);
    expect(w.hub.takeChangedHere().find((d) => d.deviceId === 'SLP-1')).toMatchObject({ upgrading: false });
  });

  it('replaces a follower’s list (all rows again), stops with [] and keeps each follower apart', () => {
    const w = world();
    w.place(context('SLP-1', 1), context('SLP-2', 2));
    w.sample('SLP-1');
    w.sample('SLP-2');
    const a = w.follower();
    const b = w.follower();
    w.hub.follow(a, [1]);
    w.hub.follow(b, [2]);
    w.hub.tick();
    expect(a.frames.flat().map((r) => r.userId)).toEqual([1]);
    expect(b.frames.flat().map((r) => r.userId)).toEqual([2]);
    w.hub.follow(a, [1, 2]);
    w.hub.tick();
    expect(a.frames[1]?.map((r) => r.userId)).toEqual([1, 2]);
    w.hub.follow(a, []);
    w.sample('SLP-1');
    w.hub.tick();
    expect(a.frames).toHaveLength(2);
    expect(w.hub.followedBy(a)).toEqual([]);
  });

  it('ignores devices that are not sleep monitors', () => {
    const w = world();
    w.place(context('SOS-1', 1, SOS));
    w.sample('SOS-1');
    expect(w.hub.device('SOS-1')).toBeUndefined();
    expect(w.hub.takeChangedHere()).toEqual([]);
  });

  it('hands out what it heard itself once, and merges what others heard when newer and known', () => {
    const w = world();
    w.place(context('SLP-1', 1), context('SLP-2', 2));
    w.sample('SLP-1', { hr: 64 });
    const mine = w.hub.takeChangedHere();
    expect(mine).toEqual([expect.objectContaining({ deviceId: 'SLP-1', online: true })]);
    expect(w.hub.takeChangedHere()).toEqual([]);

    const at = w.clock.now().getTime() + 50;
    const sample = { heartRate: 80, breathRate: 16, inBed: false, move: 3, receivedAt: at };
    w.hub.merge([
      { deviceId: 'SLP-2', online: true, sample, at },
      { deviceId: 'NOT-KNOWN', online: true, sample, at },
      // Older than what this instance heard itself: ignored.
      { deviceId: 'SLP-1', online: false, sample: null, at: at - 10_000 },
    ]);
    expect(w.hub.vitalsOf(2, 'SLP-2')).toMatchObject({ online: true, heartRate: 80, inBed: false });
    expect(w.hub.vitalsOf(1, 'SLP-1')).toMatchObject({ online: true, heartRate: 64 });
    expect(w.hub.device('NOT-KNOWN')).toBeUndefined();
    // Merged rows are not sent on: every instance tells only what it heard.
    expect(w.hub.takeChangedHere()).toEqual([]);
  });

  it('maps residents to monitors from the directory, and drops the devices it no longer lists', () => {
    const w = world();
    w.place(context('SLP-1', 1));
    w.sample('SLP-1');
    const f = w.follower();
    w.hub.follow(f, [1, 5]);
    w.hub.tick();
    expect(f.frames.flat().map((r) => r.deviceId)).toEqual(['SLP-1']);
    // The monitor moves to resident 5's bed, then is deleted.
    w.place(context('SLP-1', 5));
    w.hub.tick();
    expect(f.frames[1]).toEqual([expect.objectContaining({ userId: 5, deviceId: 'SLP-1' })]);
    w.contexts.delete('SLP-1');
    w.directory.version++;
    w.hub.tick();
    expect(w.hub.device('SLP-1')).toBeUndefined();
    expect(f.frames).toHaveLength(2);
  });

  it('falls back on the gateway’s live state for a device it has not heard since start', () => {
    const w = world();
    w.place(context('SLP-1', 1));
    w.live.apply('SLP-1', { online: true }, w.clock.now());
    expect(w.hub.vitalsOf(1, 'SLP-1')).toMatchObject({ online: true, heartRate: null, ts: null });
  });
});
