import { deviceCalls, facilityCalls, monitorCalls, topicOf, type DeviceState } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { deviceMinutes } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { monitorWorld, streamVitals, type MonitorWorld } from '../monitor/monitor-fixtures.ts';
import { addDevice, loadStock, T } from './device-test-support.ts';

const { getDeviceList, heAddHost, heInsertDevice, heGetDeviceList, heSubDevicePair, forceInitSensor } = deviceCalls;

/** The fields every screen shows of a device's state (decision 0034). */
const SHOWN = [
  'online',
  'installed',
  'installState',
  'paired',
  'pairState',
  'sensorInitialised',
  'sensorState',
] as const;
type Shown = Pick<DeviceState, (typeof SHOWN)[number]>;
const shown = (row: Partial<Record<string, unknown>> | null | undefined): Shown | undefined =>
  row ? (Object.fromEntries(SHOWN.map((k) => [k, row[k]])) as Shown) : undefined;

describeEachDb('one device state on every screen (%s)', (target) => {
  let app: TestApp;
  let w: MonitorWorld;
  const clock = new ManualClock(new Date());
  const LOOSE = 'DST-SLP-LOOSE';
  const HOST = 'DST-HOST';
  const SUB = { heard: 'DST-DOOR-HEARD', silent: 'DST-DOOR-SILENT', pairing: 'DST-DOOR-PAIRING' };

  const ok = async <T>(res: Promise<{ status: number; msg: string; data?: T | null }>): Promise<T> => {
    const answer = await res;
    expect(answer.status, answer.msg).toBe(200);
    if (answer.data === undefined || answer.data === null) throw new Error('no data');
    return answer.data;
  };
  const token = () => w.aHome.token;
  /** A device's state on the device list (its own group's page). */
  const onDeviceList = async (deviceId: string) =>
    shown((await ok(app.call(getDeviceList, { keyWord: deviceId }, { token: token() }))).rows[0]);
  /** A bed's device state on the bed list. */
  const onBedList = async (deviceId: string) =>
    shown(
      (await ok(app.call(facilityCalls.bunkList, { pageSize: 100 }, { token: token() }))).rows.find(
        (b) => b.deviceId === deviceId,
      )?.deviceState,
    );
  /** A device on the resident page of the resident whose room it is in. */
  const onResidentPage = async (userId: number, deviceId: string) =>
    shown(
      (await ok(app.call(monitorCalls.residentLive, { userId }, { token: token() }))).devices.find(
        (d) => d.deviceId === deviceId,
      ),
    );
  const subRow = async (deviceId: string) =>
    (await ok(app.call(heGetDeviceList, {}, { token: token() }))).rows
      .flatMap((h) => h.subDevices)
      .find((s) => s.deviceId === deviceId);
  /** What the live monitoring list and its pushes say of a resident's monitor. */
  const monitorOnline = async (userId: number, deviceId: string) => {
    const rows = (await ok(app.call(monitorCalls.monitorUserList, { pageSize: 50 }, { token: token() }))).rows;
    return {
      list: rows.find((r) => r.userId === userId)?.vitals?.online,
      push: app.services.monitor.vitals.vitalsOf(userId, deviceId).online,
    };
  };
  const status = (deviceId: string, online = true, extra: Record<string, unknown> = {}) =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, 'status'),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, online, ...extra })),
    );

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    w = await monitorWorld(app, 'Dst');
    await loadStock(app, w.admin, [
      { deviceId: LOOSE, deviceType: T.sleep },
      { deviceId: HOST, deviceType: T.gateway },
      ...Object.values(SUB).map((deviceId) => ({ deviceId, deviceType: T.door })),
    ]);
    await addDevice(app, token(), LOOSE, T.sleep);
    await ok(app.call(heAddHost, { deviceId: HOST }, { token: token() }));
    for (const deviceId of Object.values(SUB)) {
      await ok(app.call(heInsertDevice, { deviceId, deviceType: T.door, hostDeviceId: HOST }, { token: token() }));
    }
    await app.services.gateway.directory.load();
  });
  afterAll(() => app?.close());

  it('shows a streaming monitor online, installed at its bed and initialised on the bed list, the device list and the resident page alike', async () => {
    await streamVitals(app, w.devices.ada, { hr: 66 });
    const expected: Shown = {
      online: true,
      installed: true,
      installState: 'bed',
      paired: false,
      pairState: null,
      sensorInitialised: true,
      sensorState: 'initialised',
    };
    expect(await onDeviceList(w.devices.ada)).toEqual(expected);
    expect(await onBedList(w.devices.ada)).toEqual(expected);
    const beds = (await ok(app.call(facilityCalls.bunkList, { pageSize: 100 }, { token: token() }))).rows;
    expect(beds.find((b) => b.deviceId === w.devices.ada)?.deviceOnline).toBe(true);
    expect(await onResidentPage(w.ids.ada, w.devices.ada)).toEqual(expected);
    expect(await monitorOnline(w.ids.ada, w.devices.ada)).toEqual({ list: true, push: true });

    // A monitor at a bed that never spoke: offline, installed there, its sensor not initialised.
    const silent: Shown = { ...expected, online: false, sensorInitialised: false, sensorState: 'notInitialised' };
    expect(await onDeviceList(w.devices.bert)).toEqual(silent);
    expect(await onBedList(w.devices.bert)).toEqual(silent);
    expect(await onResidentPage(w.ids.bert, w.devices.bert)).toEqual(silent);
  });

  it('says a monitor streaming from a bed nobody linked is in use at no bed, with its sensor initialised', async () => {
    await streamVitals(app, LOOSE, { hr: 58, rr: 13 });
    expect(await onDeviceList(LOOSE)).toEqual({
      online: true,
      installed: true,
      installState: 'reporting',
      paired: false,
      pairState: null,
      sensorInitialised: true,
      sensorState: 'initialised',
    });
  });

  it('takes a monitor offline everywhere at its goodbye, before the offline event 45 s later', async () => {
    await streamVitals(app, w.devices.dora, { hr: 70 });
    expect(await monitorOnline(w.ids.dora, w.devices.dora)).toEqual({ list: true, push: true });
    const context = app.services.gateway.directory.get(w.devices.dora);
    if (!context) throw new Error('no directory entry');
    app.services.gateway.presence.offline(context, clock.now(), 'lost');
    const gone = { online: false, installState: 'bed', sensorState: 'initialised' };
    expect(await onDeviceList(w.devices.dora)).toMatchObject(gone);
    expect(await onBedList(w.devices.dora)).toMatchObject(gone);
    expect(await onResidentPage(w.ids.dora, w.devices.dora)).toMatchObject(gone);
    expect(await monitorOnline(w.ids.dora, w.devices.dora)).toEqual({ list: false, push: false });
  });

  it('initialises a sensor: initialising while the command is open and nothing measured, initialised once it measures', async () => {
    await ok(app.call(forceInitSensor, { deviceId: w.devices.bert, emptyBed: true }, { token: token() }));
    const initialising = { sensorInitialised: false, sensorState: 'initialising' };
    expect(await onDeviceList(w.devices.bert)).toMatchObject(initialising);
    expect(await onBedList(w.devices.bert)).toMatchObject(initialising);
    expect(await onResidentPage(w.ids.bert, w.devices.bert)).toMatchObject(initialising);
    clock.advance(1_000);
    await streamVitals(app, w.devices.bert, { hr: 0, rr: 12 });
    const initialised = { online: true, sensorInitialised: true, sensorState: 'initialised' };
    expect(await onDeviceList(w.devices.bert)).toMatchObject(initialised);
    expect(await onBedList(w.devices.bert)).toMatchObject(initialised);
    expect(await onResidentPage(w.ids.bert, w.devices.bert)).toMatchObject(initialised);
  });

  it('reads what another instance (or the hours before a restart) measured from the stored minutes of the last day', async () => {
    const minute = (at: Date, hrSamples: number) => ({
      deviceId: w.devices.fay,
      minute: at,
      providerId: w.bGroup.id,
      samples: 60,
      hrSamples,
      rrSamples: 0,
      inBedSeconds: 0,
      asleepSeconds: 0,
      moveAvg: 0,
      moveMax: 0,
    });
    const fay = () =>
      app.call(getDeviceList, { keyWord: w.devices.fay }, { token: w.bGroup.token }).then((r) => r.data?.rows[0]);
    const hoursAgo = (h: number) => new Date(Math.floor(clock.now().getTime() / 60_000) * 60_000 - h * 3_600_000);
    await app.database.db.insert(deviceMinutes).values(minute(hoursAgo(30), 60));
    expect(await fay()).toMatchObject({ online: false, sensorState: 'notInitialised' });
    await app.database.db.insert(deviceMinutes).values(minute(hoursAgo(20), 55));
    expect(await fay()).toMatchObject({ online: false, sensorState: 'initialised' });
  });

  it('shows a sensor heard through its host as online and paired, never online and awaiting pairing', async () => {
    await status(HOST, true, { signal: -67 });
    await status(SUB.heard, true, { battery: 88, signal: 74 });
    await ok(
      app.call(heSubDevicePair, { hostDeviceId: HOST, deviceId: SUB.pairing, deviceType: T.door }, { token: token() }),
    );
    const heard = await subRow(SUB.heard);
    expect(heard).toMatchObject({
      online: true,
      paired: true,
      pairState: 'paired',
      installed: true,
      installState: 'host',
      battery: 88,
      signal: 74,
      signalUnit: 'percent',
    });
    // The sensors' own page (the security group) says the same.
    const { sensorInitialised: _s, sensorState: _t, ...onHostList } = shown(heard) ?? {};
    expect(await onDeviceList(SUB.heard)).toMatchObject({ ...onHostList, sensorState: null });
    expect(await subRow(SUB.silent)).toMatchObject({ online: false, pairState: 'unpaired', installState: 'none' });
    expect(await subRow(SUB.pairing)).toMatchObject({ online: false, pairState: 'pairing', installState: 'none' });
    const host = (await ok(app.call(heGetDeviceList, {}, { token: token() }))).rows.find((h) => h.deviceId === HOST);
    expect(host).toMatchObject({ online: true, installState: 'reporting', signal: -67, signalUnit: 'dBm' });
    // The pairing's own progress says what the lists say.
    const progress = await ok(
      app.call(deviceCalls.heSubDevicePairStatus, { hostDeviceId: HOST, deviceId: SUB.heard }, { token: token() }),
    );
    expect(progress.paired).toBe(true);
  });
});
