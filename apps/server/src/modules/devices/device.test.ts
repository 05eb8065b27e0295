import { changeProvider, deleteProvider, deviceCalls, DEVICE_TYPES, operateProvider } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, providers } from '../../db/schema.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import {
  addDevice,
  callerFor,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  setLive,
  T,
  type DeviceWorld,
} from './device-test-support.ts';

const {
  getDeviceList,
  getDeviceSummary,
  deviceTypes,
  insertDevice,
  updateDevice,
  deleteDevice,
  isUploadData,
  restartDevice,
  heAddHost,
  heInsertDevice,
} = deviceCalls;

describeEachDb('devices (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;

  const rowsOf = async (token: string, input: Record<string, unknown> = {}) => {
    const res = await app.call(getDeviceList, { pageSize: 1000, ...input }, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data?.rows ?? [];
  };
  const idsOf = async (token: string, input: Record<string, unknown> = {}) =>
    (await rowsOf(token, input)).map((r) => r.deviceId);

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app);
    await loadStock(app, w.admin, [
      { deviceId: 'DEV-S1', deviceType: T.sleep, imei: '860000000000001' },
      { deviceId: 'DEV-S2', deviceType: T.sleepW, firmwareType: 'm8701w' },
      { deviceId: 'DEV-S3', deviceType: T.sleep },
      { deviceId: 'DEV-F1', deviceType: T.fallAbroad, imei4g: '860000000000002', imei: '860000000000003' },
      { deviceId: 'DEV-D1', deviceType: T.door },
      { deviceId: 'DEV-B1', deviceType: T.badge },
      { deviceId: 'DEV-X1', deviceType: T.sleep },
      { deviceId: 'DEV-X2', deviceType: T.sleep },
      { deviceId: 'DEV-X3', deviceType: T.sleep },
      { deviceId: 'DEV-GW1', deviceType: T.gateway },
      { deviceId: 'DEV-SUB1', deviceType: T.smoke },
      { deviceId: 'DEV-FOREIGN', deviceType: T.sleep },
    ]);
  });
  afterAll(() => app?.close());

  describe('adding', () => {
    it('adds a registry device to the chosen provider, normalising the ID', async () => {
      const res = await app.call(
        insertDevice,
        { deviceId: ' dev-s1 ', deviceType: T.sleep, name: 'Bed 1 pad', remark: 'north wing' },
        { token: w.aHome.token },
      );
      expect(res.status, res.msg).toBe(200);
      expect(res.data?.deviceId).toBe('DEV-S1');
      const [row] = await rowsOf(w.aHome.token, { keyWord: 'DEV-S1' });
      expect(row).toMatchObject({
        deviceId: 'DEV-S1',
        deviceType: T.sleep,
        model: 'BM8701-2',
        kind: 'sleep_monitor',
        group: 'sleep',
        name: 'Bed 1 pad',
        remark: 'north wing',
        commMode: 'nb-iot',
        imei: '860000000000001',
        online: false,
        providerId: w.aHome.id,
        providerName: 'Dev Home A',
        bunkId: null,
        pendingCommands: [],
        subDeviceCount: 0,
      });
    });

    it('derives 4G from a 4G module IMEI and keeps a given communication mode', async () => {
      await addDevice(app, w.aHome.token, 'DEV-F1', T.fallAbroad);
      await addDevice(app, w.aHome.token, 'DEV-D1', T.door, { commMode: 'wifi' });
      const rows = await rowsOf(w.aHome.token);
      expect(rows.find((r) => r.deviceId === 'DEV-F1')?.commMode).toBe('4g');
      expect(rows.find((r) => r.deviceId === 'DEV-D1')?.commMode).toBe('wifi');
    });

    it('lets a class 1 provider add to its subordinate and nowhere else', async () => {
      await addDevice(app, w.aGroup.token, 'DEV-B1', T.badge, { providerId: w.aHome.id });
      expect((await rowsOf(w.aHome.token)).some((r) => r.deviceId === 'DEV-B1')).toBe(true);
      const foreign = await app.call(
        insertDevice,
        { deviceId: 'DEV-X1', deviceType: T.sleep, providerId: w.bGroup.id },
        { token: w.aGroup.token },
      );
      expect(foreign.msgKey).toBe('not_found');
      const platform = await app.call(insertDevice, { deviceId: 'DEV-X1', deviceType: T.sleep }, { token: w.admin });
      expect([platform.msgKey, platform.msg]).toEqual(['provider.required', 'Choose a provider first.']);
      await addDevice(app, w.admin, 'DEV-X1', T.sleep, { providerId: w.bGroup.id });
      // Never to a deleted or disabled provider.
      const gone = await makeProvider(app, w.admin, 'Dev Gone');
      await app.call(deleteProvider, { id: gone.id }, { token: w.admin });
      const deleted = await app.call(
        insertDevice,
        { deviceId: 'DEV-X2', deviceType: T.sleep, providerId: gone.id },
        { token: w.admin },
      );
      expect(deleted.msgKey).toBe('not_found');
      const off = await makeProvider(app, w.admin, 'Dev Off');
      await app.call(operateProvider, { id: off.id, type: 'disable' }, { token: w.admin });
      const disabled = await app.call(
        insertDevice,
        { deviceId: 'DEV-X2', deviceType: T.sleep, providerId: off.id },
        { token: w.admin },
      );
      expect([disabled.msgKey, disabled.msg]).toEqual(['provider.disabled', 'This provider is disabled.']);
    });

    it('refuses with the messages of the spec', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [
          { deviceId: 'DEV_S9', deviceType: T.sleep },
          'device.idFormat',
          'The device ID format is wrong: use digits, letters and - only.',
        ],
        [
          { deviceId: 'DEV-NOPE', deviceType: T.sleep },
          'device.notRegistered',
          'This device ID is not registered on the platform.',
        ],
        [
          { deviceId: 'DEV-S3', deviceType: T.sleepW },
          'device.typeMismatch',
          'The device ID does not match the device type.',
        ],
        [
          { deviceId: 'DEV-S2', deviceType: T.sleepW, firmwareType: 'other-fw' },
          'device.typeMismatch',
          'The device ID does not match the device type.',
        ],
        [{ deviceId: 'DEV-S1', deviceType: T.sleep }, 'device.alreadyAdded', 'This device has already been added.'],
        [
          { deviceId: 'DEV-X1', deviceType: T.sleep },
          'device.addedByOther',
          'This device has been added by another provider.',
        ],
        [{ deviceId: 'DEV-S3', deviceType: 12345 }, 'device.typeUnknown', 'Device type is not a known device type.'],
      ];
      for (const [input, key, msg] of cases) {
        const res = await app.call(insertDevice, input as never, { token: w.aHome.token });
        expect([res.msgKey, res.msg], JSON.stringify(input)).toEqual([key, msg]);
        expect(res.status).toBe(key === 'device.idFormat' || key === 'device.typeUnknown' ? 400 : 300);
      }
      // The class 1 provider sees the subordinate's device: "already added"; B does not: "another provider".
      const viaGroup = await app.call(
        insertDevice,
        { deviceId: 'DEV-S1', deviceType: T.sleep },
        { token: w.aGroup.token },
      );
      expect(viaGroup.msgKey).toBe('device.alreadyAdded');
      const viaB = await app.call(insertDevice, { deviceId: 'dev-s1', deviceType: T.sleep }, { token: w.bGroup.token });
      expect(viaB.msgKey).toBe('device.addedByOther');
      // A matching firmware type is accepted (case-insensitive).
      await app.call(
        insertDevice,
        { deviceId: 'DEV-S2', deviceType: T.sleepW, firmwareType: 'M8701W' },
        {
          token: w.aHome.token,
        },
      );
      expect(await idsOf(w.aHome.token, { keyWord: 'DEV-S2' })).toEqual(['DEV-S2']);
    });

    it('answers concurrent adds of one device with one success', async () => {
      await loadStock(app, w.admin, [{ deviceId: 'DEV-RACE', deviceType: T.door }]);
      const tokens = [w.aHome.token, w.bGroup.token, w.aHome.token, w.bGroup.token];
      const results = await Promise.all(
        tokens.map((token) => app.call(insertDevice, { deviceId: 'DEV-RACE', deviceType: T.door }, { token })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 200)) {
        expect(['device.alreadyAdded', 'device.addedByOther']).toContain(r.msgKey);
      }
      expect((await app.call(deleteDevice, { deviceId: 'DEV-RACE' }, { token: w.admin })).status).toBe(200);
    });

    it('is refused to roles that do not manage devices', async () => {
      for (const role of ['GOVERNMENT', 'SOCIAL_WORKER'] as const) {
        const account = await makeAccount(app, w.aGroup.token, `dev${role.toLowerCase().replace('_', '')}`, role);
        const token = await app.login(account.userName, account.password);
        const res = await app.call(insertDevice, { deviceId: 'DEV-S3', deviceType: T.sleep }, { token });
        expect(res.msgKey, role).toBe('no_permission');
        expect((await app.call(getDeviceList, {}, { token })).msgKey, role).toBe('no_permission');
      }
    });
  });

  describe('listing', () => {
    it('shows the bed, room and resident of a device and searches them', async () => {
      await addDevice(app, w.aHome.token, 'DEV-S3', T.sleep, { name: 'Window pad' });
      const { bedId } = await placeBed(app, w.aHome.id, {
        area: 'East Building',
        room: 'Room 101',
        bed: 'Bed A',
        resident: 'Wang Fang',
      });
      await linkBed(app, bedId, 'DEV-S3');
      const [row] = await rowsOf(w.aHome.token, { keyWord: 'DEV-S3' });
      expect(row).toMatchObject({
        bunkId: bedId,
        bunkName: 'Bed A',
        roomName: 'Room 101',
        floorName: 'East Building F1',
        areaName: 'East Building',
        userName: 'Wang Fang',
      });
      expect(await idsOf(w.aHome.token, { keyWord: 'wang' })).toEqual(['DEV-S3']);
      expect(await idsOf(w.aHome.token, { keyWord: 'bed a' })).toEqual(['DEV-S3']);
      expect(await idsOf(w.aHome.token, { keyWord: 'window' })).toEqual(['DEV-S3']);
      expect(await idsOf(w.aHome.token, { keyWord: '%' })).toEqual([]);
    });

    it('filters by type, group, online state and provider, newest first', async () => {
      await setLive(app, 'DEV-S1', { online: true, battery: 80 });
      expect(await idsOf(w.aHome.token, { kind: 'sleep' })).toEqual(['DEV-S3', 'DEV-S2', 'DEV-S1']);
      expect(await idsOf(w.aHome.token, { deviceType: T.sleep })).toEqual(['DEV-S3', 'DEV-S1']);
      expect(await idsOf(w.aHome.token, { deviceType: T.sleep, kind: 'fall' })).toEqual([]);
      expect(await idsOf(w.aHome.token, { kind: 'fall' })).toEqual(['DEV-F1']);
      expect(await idsOf(w.aHome.token, { kind: 'security' })).toEqual(['DEV-D1']);
      expect(await idsOf(w.aHome.token, { kind: 'wearable' })).toEqual(['DEV-B1']);
      expect(await idsOf(w.aHome.token, { online: true })).toEqual(['DEV-S1']);
      expect((await rowsOf(w.aHome.token, { online: true }))[0]?.battery).toBe(80);
      // Class 1 sees its subordinate's devices; filtering on a foreign provider is not_found.
      expect(await idsOf(w.aGroup.token, { providerId: w.aHome.id, kind: 'fall' })).toEqual(['DEV-F1']);
      expect((await app.call(getDeviceList, { providerId: w.bGroup.id }, { token: w.aGroup.token })).msgKey).toBe(
        'not_found',
      );
      // Platform administrators see everyone's, or one provider's.
      expect(await idsOf(w.admin, { keyWord: 'DEV-X1' })).toEqual(['DEV-X1']);
      expect(await idsOf(w.admin, { providerId: w.bGroup.id })).toEqual(['DEV-X1']);
      // Paging.
      const page = await app.call(getDeviceList, { kind: 'sleep', pageNum: 2, pageSize: 2 }, { token: w.aHome.token });
      expect(page.data).toMatchObject({ total: 3, pageNum: 2, pageSize: 2 });
      expect(page.data?.rows.map((r) => r.deviceId)).toEqual(['DEV-S1']);
      // The total counts what the filters keep, whichever joins they need (live state, bed, resident).
      for (const input of [{}, { online: true }, { online: false }, { keyWord: 'wang' }, { keyWord: 'DEV' }]) {
        const all = await app.call(getDeviceList, { pageSize: 1000, ...input }, { token: w.aHome.token });
        expect(all.data?.total, JSON.stringify(input)).toBe(all.data?.rows.length);
        expect(all.data?.total, JSON.stringify(input)).toBeGreaterThan(0);
      }
    });

    it('never shows another provider\u2019s devices, even through the chosen provider', async () => {
      expect(await idsOf(w.bGroup.token)).toEqual(['DEV-X1']);
      expect(await idsOf(w.aGroup.token, { keyWord: 'DEV-X1' })).toEqual([]);
      const domainOf = async (id: number) =>
        (await app.database.db.select().from(providers).where(eq(providers.id, id)))[0]?.domain ?? '';
      // A class 1 account lists the provider it chose in the console.
      const chosen = await app.call(changeProvider, { domain: await domainOf(w.aHome.id) }, { token: w.aGroup.token });
      expect(chosen.status, chosen.msg).toBe(200);
      expect(await idsOf(w.aGroup.token, { kind: 'fall' })).toEqual(['DEV-F1']);
      const foreign = await app.call(
        changeProvider,
        { domain: await domainOf(w.bGroup.id) },
        { token: w.aGroup.token },
      );
      expect(foreign.status).not.toBe(200);
      expect(await idsOf(w.aGroup.token)).not.toContain('DEV-X1');
    });

    it('counts devices per group', async () => {
      const res = await app.call(getDeviceSummary, {}, { token: w.aHome.token });
      expect(res.data).toMatchObject({ total: 6, online: 1, offline: 5 });
      expect(res.data?.groups).toEqual([
        { kind: 'sleep', total: 3, online: 1, offline: 2 },
        { kind: 'fall', total: 1, online: 0, offline: 1 },
        { kind: 'security', total: 1, online: 0, offline: 1 },
        { kind: 'gateway', total: 0, online: 0, offline: 0 },
        { kind: 'wearable', total: 1, online: 0, offline: 1 },
      ]);
      const b = await app.call(getDeviceSummary, {}, { token: w.bGroup.token });
      expect(b.data).toMatchObject({ total: 1, online: 0, offline: 1 });
      const foreign = await app.call(getDeviceSummary, { providerId: w.bGroup.id }, { token: w.aGroup.token });
      expect(foreign.msgKey).toBe('not_found');
    });

    it('lists the type catalogue by the overseas flag', async () => {
      const all = await app.call(deviceTypes, {}, { token: w.aHome.token });
      expect(all.data).toHaveLength(DEVICE_TYPES.length);
      expect(all.data).toHaveLength(18);
      const models = async (abroad: boolean) =>
        (await app.call(deviceTypes, { abroad }, { token: w.aHome.token })).data?.map((t) => t.model) ?? [];
      expect(await models(true)).toContain('ED719W');
      expect(await models(true)).not.toContain('ED719N');
      expect(await models(false)).toContain('ED719N');
      expect(await models(false)).not.toContain('ED719W');
      expect(await models(false)).toHaveLength(17);
      expect(all.data?.find((t) => t.code === T.gateway)).toEqual({
        code: T.gateway,
        model: 'LHD8100',
        kind: 'gateway_host',
        group: 'gateway',
        market: null,
      });
    });
  });

  describe('editing', () => {
    it('renames, changes the communication mode and remark, keeping omitted fields', async () => {
      const res = await app.call(
        updateDevice,
        { deviceId: 'dev-d1', name: 'Front door', commMode: 'nb-iot' },
        { token: w.aGroup.token },
      );
      expect(res.status, res.msg).toBe(200);
      expect((await rowsOf(w.aHome.token, { keyWord: 'DEV-D1' }))[0]).toMatchObject({
        name: 'Front door',
        commMode: 'nb-iot',
      });
      await app.call(updateDevice, { deviceId: 'DEV-D1', name: '', remark: 'kept' }, { token: w.aHome.token });
      expect((await rowsOf(w.aHome.token, { keyWord: 'DEV-D1' }))[0]).toMatchObject({
        name: null,
        commMode: 'nb-iot',
        remark: 'kept',
      });
    });

    it('treats another provider\u2019s device as missing', async () => {
      for (const call of [
        () => app.call(updateDevice, { deviceId: 'DEV-X1', name: 'Taken' }, { token: w.aGroup.token }),
        () => app.call(deleteDevice, { deviceId: 'DEV-X1' }, { token: w.aGroup.token }),
        () => app.call(restartDevice, { deviceId: 'DEV-X1' }, { token: w.aHome.token }),
      ]) {
        const res = await call();
        expect([res.status, res.msgKey, res.msg]).toEqual([300, 'device.notFound', 'The device does not exist.']);
      }
      expect((await rowsOf(w.bGroup.token))[0]?.name).toBeNull();
      const missing = await app.call(updateDevice, { deviceId: 'DEV-NONE', name: 'x' }, { token: w.aHome.token });
      expect(missing.msgKey).toBe('device.notFound');
    });

    it('sets the raw data upload for device administrators only', async () => {
      const denied = await app.call(isUploadData, { deviceId: 'DEV-S1', uploadData: true }, { token: w.aHome.token });
      expect(denied.msgKey).toBe('no_permission');
      expect((await app.call(isUploadData, { deviceId: 'DEV-S1', uploadData: true }, { token: w.admin })).status).toBe(
        200,
      );
      expect((await rowsOf(w.aHome.token, { keyWord: 'DEV-S1' }))[0]?.uploadData).toBe(true);
      await app.call(isUploadData, { deviceId: 'DEV-S1', uploadData: 'false' as never }, { token: w.admin });
      expect((await rowsOf(w.aHome.token, { keyWord: 'DEV-S1' }))[0]?.uploadData).toBe(false);
    });
  });

  describe('deleting', () => {
    it('refuses while the device is on a bed, naming the bed', async () => {
      const res = await app.call(deleteDevice, { deviceId: 'DEV-S3' }, { token: w.aHome.token });
      expect([res.msgKey, res.msg]).toEqual([
        'device.linkedToBed',
        'This device is linked to bed Room 101 Bed A. Unlink it from the bed first.',
      ]);
      expect(await idsOf(w.aHome.token, { keyWord: 'DEV-S3' })).toEqual(['DEV-S3']);
    });

    it('refuses a gateway host with sub-devices', async () => {
      expect((await app.call(heAddHost, { deviceId: 'DEV-GW1' }, { token: w.aHome.token })).status).toBe(200);
      const sub = await app.call(
        heInsertDevice,
        { hostDeviceId: 'DEV-GW1', deviceId: 'DEV-SUB1', deviceType: T.smoke },
        { token: w.aHome.token },
      );
      expect(sub.status, sub.msg).toBe(200);
      const res = await app.call(deleteDevice, { deviceId: 'DEV-GW1' }, { token: w.aHome.token });
      expect([res.msgKey, res.msg]).toEqual([
        'device.hasSubDevices',
        'This gateway host still has 1 sub-devices. Remove them first.',
      ]);
      expect((await app.call(deleteDevice, { deviceId: 'DEV-SUB1' }, { token: w.aHome.token })).status).toBe(200);
      const host = await app.call(deleteDevice, { deviceId: 'DEV-GW1' }, { token: w.aHome.token });
      expect(host.data).toEqual({ telecom: 'not_registered', telecomMsg: null });
    });

    it('returns the device to stock, cancels its commands, and another provider may add it', async () => {
      await setLive(app, 'DEV-D1', { online: true });
      const queued = await app.call(restartDevice, { deviceId: 'DEV-D1' }, { token: w.aHome.token });
      expect(queued.status, queued.msg).toBe(200);
      const res = await app.call(deleteDevice, { deviceId: 'DEV-D1' }, { token: w.aGroup.token });
      expect(res.status, res.msg).toBe(200);
      expect(res.data).toEqual({ telecom: 'not_registered', telecomMsg: null });
      expect(await idsOf(w.aHome.token, { keyWord: 'DEV-D1' })).toEqual([]);
      const [command] = await app.database.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.id, queued.data?.commandId ?? 0));
      expect(command).toMatchObject({ state: 'cancelled', deviceRowId: null, deviceId: 'DEV-D1' });
      await addDevice(app, w.bGroup.token, 'DEV-D1', T.door);
      expect((await rowsOf(w.bGroup.token, { keyWord: 'DEV-D1' }))[0]).toMatchObject({ online: false, name: null });
    });
  });

  describe('batch add (for the spreadsheet import)', () => {
    it('adds every row or none, reporting each problem with its row and field', async () => {
      await loadStock(app, w.admin, [
        { deviceId: 'DEV-BATCH-1', deviceType: T.sleep },
        { deviceId: 'DEV-BATCH-2', deviceType: T.sleep },
        { deviceId: 'DEV-BATCH-GW', deviceType: T.gateway },
        { deviceId: 'DEV-BATCH-SUB', deviceType: T.door },
      ]);
      const caller = await callerFor(app, w.aHome.token);
      const service = app.services.devices.devices;
      const refused = await app.services.transactions.run((tx, emit) =>
        service.addMany(
          caller,
          [
            { deviceId: 'DEV-BATCH-1', deviceType: T.sleep },
            { deviceId: 'DEV-BATCH-1', deviceType: T.sleep },
            { deviceId: 'DEV-BATCH-2', deviceType: T.door },
            { deviceId: 'DEV-NOPE', deviceType: T.sleep },
            { deviceId: 'DEV-X1', deviceType: T.sleep },
            { deviceId: 'bad id', deviceType: T.sleep },
            { deviceId: 'DEV-BATCH-SUB', deviceType: T.door, hostDeviceId: 'DEV-X1' },
          ],
          { tx, emit },
        ),
      );
      expect(refused.added).toBe(0);
      expect(refused.problems.map((p) => [p.index, p.field, p.key])).toEqual([
        [1, 'deviceId', 'device.alreadyAdded'],
        [2, 'deviceType', 'device.typeMismatch'],
        [3, 'deviceId', 'device.notRegistered'],
        [4, 'deviceId', 'device.addedByOther'],
        [5, 'deviceId', 'device.idFormat'],
        [6, 'hostDeviceId', 'device.notFound'],
      ]);
      expect(await idsOf(w.aHome.token, { keyWord: 'DEV-BATCH' })).toEqual([]);
      const accepted = await app.services.transactions.run((tx, emit) =>
        service.addMany(
          caller,
          [
            { deviceId: 'DEV-BATCH-1', deviceType: T.sleep },
            { deviceId: 'DEV-BATCH-GW', deviceType: T.gateway },
            { deviceId: 'DEV-BATCH-SUB', deviceType: T.door, hostDeviceId: 'DEV-BATCH-GW' },
          ],
          { tx, emit },
        ),
      );
      expect(accepted).toEqual({ added: 3, problems: [] });
      expect(await idsOf(w.aHome.token, { keyWord: 'DEV-BATCH' })).toEqual([
        'DEV-BATCH-SUB',
        'DEV-BATCH-GW',
        'DEV-BATCH-1',
      ]);
      expect((await rowsOf(w.aHome.token, { keyWord: 'DEV-BATCH-SUB' }))[0]?.hostDeviceId).toBe('DEV-BATCH-GW');
    });
  });
});
