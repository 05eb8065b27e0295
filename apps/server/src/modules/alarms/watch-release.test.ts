import { alarmCalls, RELEASE_KIND, topicOf } from '@vigil/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { PublishedEvent } from '../../core/events.ts';
import { alarms, deviceEvents } from '../../db/schema.ts';
import { createTestApp, dbTargets, type TestApp } from '../../test/harness.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../devices/device-test-support.ts';
import { ALARM_EVENT } from '../../core/event-catalogue.ts';

/**
 * A caregiver releases at her nurse watch the alarm of a resident's device (issue 28, defect 7):
 * through the ingest pipeline as the broker hands events over, on the database of each target.
 */
describe.each(dbTargets())('releases at a nurse watch on %s', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  const clock = new ManualClock(new Date());
  const published: PublishedEvent[] = [];
  let seq = 1;

  const send = async (deviceId: string, body: Record<string, unknown>, ts = clock.now().getTime() / 1000) => {
    const outcome = await app.services.gateway.ingest.handle(
      topicOf(deviceId, 'event'),
      Buffer.from(JSON.stringify({ ts, seq: seq++, ...body })),
    );
    // Released or refused, the watch's event is stored and acknowledged like any other.
    expect(outcome.result).toBe('stored');
  };
  /** A new SOS alarm of a button: the stored row. */
  const sos = async (deviceId: string) => {
    await send(deviceId, { event: 'sos' });
    const [alarm] = await openOf(deviceId);
    if (!alarm) throw new Error(`no open alarm of ${deviceId}`);
    return alarm;
  };
  const openOf = (deviceId: string) =>
    app.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, deviceId), eq(alarms.releaseKind, RELEASE_KIND.none)));
  const byId = async (id: number) => (await app.database.db.select().from(alarms).where(eq(alarms.id, id)))[0];
  const timelineOf = (id: number) => app.services.alarms.repo.timeline(app.database.db, id);
  const releasesPublished = (id: number) =>
    published.filter((e) => e.type === ALARM_EVENT.released && e.payload.alarm.id === id);
  const counted = async (outcome: string): Promise<number> => {
    const metric = await app.services.alarms.metrics.registry.getSingleMetric('vigil_watch_releases_total')?.get();
    return metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    app.services.events.subscribe((e) => published.push(e), [ALARM_EVENT.released]);
    w = await deviceWorld(app, 'Wch');
    await loadStock(app, w.admin, [
      { deviceId: 'WCH-A1', deviceType: T.watch },
      { deviceId: 'WCH-A2', deviceType: T.watch },
      { deviceId: 'WCH-SOS-A', deviceType: T.sos },
      { deviceId: 'WCH-SOS-A2', deviceType: T.sos },
      { deviceId: 'WCH-SOS-B', deviceType: T.sos },
    ]);
    for (const id of ['WCH-A1', 'WCH-A2']) await addDevice(app, w.aHome.token, id, T.watch);
    for (const id of ['WCH-SOS-A', 'WCH-SOS-A2']) await addDevice(app, w.aHome.token, id, T.sos);
    // Another care home's call button.
    await addDevice(app, w.bGroup.token, 'WCH-SOS-B', T.sos);
    const bed = await placeBed(app, w.aHome.id, {
      area: 'Wch Area',
      room: 'Wch 101',
      bed: 'Wch 101-1',
      resident: 'Ada',
    });
    await linkBed(app, bed.bedId, 'WCH-SOS-A');
    await app.services.gateway.directory.load();
  });
  afterAll(() => app?.close());

  it('a watch release naming a resident’s SOS alarm releases it at the watch, once, with the watch on its timeline', async () => {
    const alarm = await sos('WCH-SOS-A');
    clock.advance(60_000);
    await send('WCH-A1', { event: 'watch_release', alarmId: alarm.id });
    expect(await byId(alarm.id)).toMatchObject({ releaseKind: RELEASE_KIND.watch, releasedAt: clock.now() });
    const steps = await timelineOf(alarm.id);
    expect(steps.map((s) => [s.step, s.detail])).toEqual([
      ['raised', { count: 1 }],
      ['released', { kind: RELEASE_KIND.watch, watchId: 'WCH-A1' }],
    ]);
    // The consoles hear of it as of any release: published to the alarm's provider.
    expect(releasesPublished(alarm.id).map((e) => e.providerId)).toEqual([w.aHome.id]);
    // The console's timeline names the watch as who released it.
    const shown = await app.call(alarmCalls.alarmTimeline, { id: alarm.id }, { token: w.aHome.token });
    expect(shown.data?.map((s) => [s.step, s.who])).toEqual([
      ['raised', null],
      ['released', 'WCH-A1'],
    ]);

    // A second watch (or the same one again) releasing it: it is released already; nothing changes.
    const notOpen = await counted('not_open');
    await send('WCH-A2', { event: 'watch_release', alarmId: alarm.id });
    expect((await timelineOf(alarm.id)).filter((s) => s.step === 'released')).toHaveLength(1);
    expect(releasesPublished(alarm.id)).toHaveLength(1);
    expect(await counted('not_open')).toBe(notOpen + 1);
  });

  const countOf = async (name: string, labels: Record<string, string>): Promise<number> => {
    const metric = await app.services.alarms.metrics.registry.getSingleMetric(name)?.get();
    return metric?.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value))?.value ?? 0;
  };

  it('/metrics counts the alarms raised and released on this instance (the cluster dashboard reads them)', async () => {
    const raised = await countOf('vigil_alarms_raised_total', { type: 'SOS' });
    const releasedBefore = await countOf('vigil_alarms_released_total', { type: 'SOS' });
    const alarm = await sos('WCH-SOS-A');
    expect(await countOf('vigil_alarms_raised_total', { type: 'SOS', level: String(alarm.level) })).toBe(raised + 1);
    clock.advance(10_000);
    await send('WCH-A1', { event: 'watch_release', alarmId: alarm.id });
    expect(await countOf('vigil_alarms_released_total', { type: 'SOS' })).toBe(releasedBefore + 1);
  });

  it('a watch release naming the resident’s device releases its open alarm', async () => {
    const alarm = await sos('WCH-SOS-A');
    const released = await counted('released');
    clock.advance(30_000);
    await send('WCH-A2', { event: 'watch_release', deviceId: 'WCH-SOS-A' });
    expect(await byId(alarm.id)).toMatchObject({ releaseKind: RELEASE_KIND.watch });
    expect((await timelineOf(alarm.id)).at(-1)?.detail).toEqual({ kind: RELEASE_KIND.watch, watchId: 'WCH-A2' });
    expect(await counted('released')).toBe(released + 1);
  });

  it('naming the alarm and a device it is not of releases nothing', async () => {
    const alarm = await sos('WCH-SOS-A');
    await send('WCH-A1', { event: 'watch_release', alarmId: alarm.id, deviceId: 'WCH-SOS-A2' });
    expect(await byId(alarm.id)).toMatchObject({ releaseKind: RELEASE_KIND.none });
    await send('WCH-A1', { event: 'watch_release', alarmId: alarm.id, deviceId: 'WCH-SOS-A' });
    expect(await byId(alarm.id)).toMatchObject({ releaseKind: RELEASE_KIND.watch });
  });

  it('another care home’s alarm is never released, named by its id or by its device: refused quietly and counted', async () => {
    const foreign = await sos('WCH-SOS-B');
    const before = await counted('foreign');
    await send('WCH-A1', { event: 'watch_release', alarmId: foreign.id });
    await send('WCH-A1', { event: 'watch_release', deviceId: 'WCH-SOS-B' });
    expect(await byId(foreign.id)).toMatchObject({ releaseKind: RELEASE_KIND.none });
    expect(await timelineOf(foreign.id)).toHaveLength(1);
    expect(releasesPublished(foreign.id)).toEqual([]);
    expect(await counted('foreign')).toBe(before + 2);
  });

  it('an unknown alarm or device is refused quietly; the watch’s event is stored all the same', async () => {
    const before = await counted('unknown');
    const notOpen = await counted('not_open');
    await send('WCH-A1', { event: 'watch_release', alarmId: 987_654_321 });
    await send('WCH-A1', { event: 'watch_release', deviceId: 'NO-SUCH-DEVICE' });
    expect(await counted('unknown')).toBe(before + 1);
    // A device with nothing open is nothing to release, whoever it is.
    expect(await counted('not_open')).toBe(notOpen + 1);
    const stored = await app.database.db
      .select()
      .from(deviceEvents)
      .where(and(eq(deviceEvents.deviceId, 'WCH-A1'), eq(deviceEvents.event, 'watch_release')))
      .orderBy(asc(deviceEvents.id));
    expect(stored.at(-1)?.detail).toEqual({ deviceId: 'NO-SUCH-DEVICE' });
  });

  it('a release naming a device, sent long after it was pressed, does not release a newer alarm nobody was shown', async () => {
    const pressedAt = clock.now().getTime() / 1000;
    clock.advance(10 * 60_000);
    const newer = await sos('WCH-SOS-A2');
    const before = await counted('not_releasable');
    // The watch was out of reach; its buffered release arrives ten minutes late.
    await send('WCH-A1', { event: 'watch_release', deviceId: 'WCH-SOS-A2' }, pressedAt);
    expect(await byId(newer.id)).toMatchObject({ releaseKind: RELEASE_KIND.none });
    expect(await counted('not_releasable')).toBe(before + 1);
  });

  it('a watch release naming nothing releases the watch’s own alarms, as documented, never a resident’s', async () => {
    const resident = await sos('WCH-SOS-A2');
    // A nurse watch's own SOS key: the nurse called for help herself.
    const own = await sos('WCH-A2');
    await send('WCH-A2', { event: 'watch_release' });
    expect(await byId(own.id)).toMatchObject({ releaseKind: RELEASE_KIND.watch });
    expect((await timelineOf(own.id)).at(-1)?.detail).toEqual({ kind: RELEASE_KIND.watch, watchId: 'WCH-A2' });
    expect(await byId(resident.id)).toMatchObject({ releaseKind: RELEASE_KIND.none });
  });

  it('two watches releasing one alarm at the same moment release it once', async () => {
    const alarm = await sos('WCH-SOS-A');
    await Promise.all([
      send('WCH-A1', { event: 'watch_release', alarmId: alarm.id }),
      send('WCH-A2', { event: 'watch_release', deviceId: 'WCH-SOS-A' }),
    ]);
    expect(await byId(alarm.id)).toMatchObject({ releaseKind: RELEASE_KIND.watch });
    expect((await timelineOf(alarm.id)).filter((s) => s.step === 'released')).toHaveLength(1);
    expect(releasesPublished(alarm.id)).toHaveLength(1);
  });
});
