import { deviceCalls, operateProvider } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deviceCommands } from '../../db/schema.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  setLive,
  T,
  type DeviceWorld,
} from './device-test-support.ts';

const { getDeviceList, heGetDeviceList, heAddHost, heInsertDevice, heReplaceDevice, heDeleteDevice, heChangProvider } =
  deviceCalls;

describeEachDb('gateway hosts and sub-devices (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;

  const sub = (hostDeviceId: string, deviceId: string, deviceType: number = T.door, token = w.aHome.token) =>
    app.call(heInsertDevice, { hostDeviceId, deviceId, deviceType }, { token });
  const hosts = async (token: string, input: Record<string, unknown> = {}) => {
    const res = await app.call(heGetDeviceList, { pageSize: 100, ...input }, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data?.rows ?? [];
  };
  const changProvider = (deviceId: string, providerId: number, token: string) =>
    app.call(heChangProvider, { deviceId, providerId }, { token });
  const remove = (deviceId: string, deviceType: number, token = w.aHome.token) =>
    app.call(heDeleteDevice, { deviceId, deviceType }, { token });

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Gw');
    const rows = [
      { deviceId: 'GW-1', deviceType: T.gateway },
      { deviceId: 'GW-2', deviceType: T.gateway },
      { deviceId: 'GW-NEW', deviceType: T.gateway },
      { deviceId: 'GW-B', deviceType: T.gateway },
      { deviceId: 'GW-SLEEP', deviceType: T.sleep },
      { deviceId: 'GW-D1', deviceType: T.door },
      { deviceId: 'GW-D2', deviceType: T.door },
      { deviceId: 'GW-SMOKE', deviceType: T.smoke },
      { deviceId: 'GW-IR', deviceType: T.infrared },
      { deviceId: 'GW-BADGE', deviceType: T.badge },
      ...Array.from({ length: 50 }, (_, i) => ({ deviceId: `GW-FILL-${i}`, deviceType: T.door })),
    ];
    await loadStock(app, w.admin, rows);
  });
  afterAll(() => app?.close());

  it('adds gateway hosts from the registry only', async () => {
    const res = await app.call(heAddHost, { deviceId: 'gw-1', name: 'Hall gateway' }, { token: w.aHome.token });
    expect(res.status, res.msg).toBe(200);
    expect(res.data?.deviceId).toBe('GW-1');
    const notGateway = await app.call(heAddHost, { deviceId: 'GW-SLEEP' }, { token: w.aHome.token });
    expect(notGateway.msgKey).toBe('device.typeMismatch');
    const unknown = await app.call(heAddHost, { deviceId: 'GW-NONE' }, { token: w.aHome.token });
    expect(unknown.msgKey).toBe('device.notRegistered');
    expect((await app.call(heAddHost, { deviceId: 'GW-1' }, { token: w.aHome.token })).msgKey).toBe(
      'device.alreadyAdded',
    );
    expect((await app.call(heAddHost, { deviceId: 'GW-1' }, { token: w.bGroup.token })).msgKey).toBe(
      'device.addedByOther',
    );
    expect((await app.call(heAddHost, { deviceId: 'GW-B', name: 'B gateway' }, { token: w.bGroup.token })).status).toBe(
      200,
    );
  });

  it('pairs security sensors under a host of the caller, in the host\u2019s provider', async () => {
    const res = await sub('GW-1', 'gw-d1', T.door, w.aGroup.token);
    expect(res.status, res.msg).toBe(200);
    const list = await app.call(getDeviceList, { keyWord: 'GW-D1' }, { token: w.aHome.token });
    expect(list.data?.rows[0]).toMatchObject({ hostDeviceId: 'GW-1', providerId: w.aHome.id, paired: false });
    const cases: [Promise<{ msgKey?: string | undefined; msg: string }>, string, string][] = [
      [sub('GW-B', 'GW-D2'), 'device.notFound', 'The device does not exist.'],
      [sub('GW-NONE', 'GW-D2'), 'device.notFound', 'The device does not exist.'],
      [sub('GW-D1', 'GW-D2'), 'device.notGateway', 'This device is not a gateway host.'],
      [
        sub('GW-1', 'GW-BADGE', T.badge),
        'device.notSubDeviceType',
        'This type of device cannot be paired with a gateway host.',
      ],
      [sub('GW-1', 'GW-SMOKE', T.door), 'device.typeMismatch', 'The device ID does not match the device type.'],
      [sub('GW-1', 'GW-D1'), 'device.alreadyAdded', 'This device has already been added.'],
    ];
    for (const [call, key, msg] of cases) {
      const r = await call;
      expect([r.msgKey, r.msg]).toEqual([key, msg]);
    }
    expect((await sub('GW-1', 'GW-SMOKE', T.smoke)).status).toBe(200);
    expect((await sub('GW-1', 'GW-IR', T.infrared)).status).toBe(200);
  });

  it('holds fewer than 50 sub-devices per host', async () => {
    expect((await app.call(heAddHost, { deviceId: 'GW-2' }, { token: w.aHome.token })).status).toBe(200);
    for (let i = 0; i < 49; i++) {
      const r = await sub('GW-2', `GW-FILL-${i}`);
      expect(r.status, `${i}: ${r.msg}`).toBe(200);
    }
    const full = await sub('GW-2', 'GW-FILL-49');
    expect([full.msgKey, full.msg]).toEqual([
      'device.gatewayFull',
      'A gateway host holds fewer than 50 sub-devices; this one is full.',
    ]);
    const [row] = await hosts(w.aHome.token, { keyWord: 'GW-2' });
    expect(row?.subDeviceCount).toBe(49);
    expect(row?.subDevices).toHaveLength(49);
  });

  it('lists hosts with their sub-devices, searching sub-devices too', async () => {
    await setLive(app, 'GW-D1', { online: true, battery: 55 });
    const rows = await hosts(w.aHome.token, { keyWord: 'gw-d1' });
    expect(rows.map((r) => r.deviceId)).toEqual(['GW-1']);
    expect(rows[0]).toMatchObject({ name: 'Hall gateway', group: 'gateway', subDeviceCount: 3 });
    expect(rows[0]?.subDevices.map((s) => [s.deviceId, s.kind, s.online])).toEqual([
      ['GW-D1', 'door_magnet', true],
      ['GW-SMOKE', 'smoke_sensor', false],
      ['GW-IR', 'infrared_motion', false],
    ]);
    expect(rows[0]?.subDevices[0]).toMatchObject({ battery: 55, model: 'MC-N01', pendingCommands: [] });
    expect((await hosts(w.aHome.token)).map((r) => r.deviceId)).toEqual(['GW-2', 'GW-1']);
    expect((await hosts(w.bGroup.token)).map((r) => r.deviceId)).toEqual(['GW-B']);
    expect((await hosts(w.aGroup.token, { keyWord: 'GW-B' })).length).toBe(0);
    expect((await hosts(w.aHome.token, { online: true })).length).toBe(0);
  });

  it('replaces a sub-device: the new one joins the host and keeps the name', async () => {
    await app.call(deviceCalls.updateDevice, { deviceId: 'GW-D1', name: 'Door 1' }, { token: w.aHome.token });
    await setLive(app, 'GW-D1', { online: true });
    const queued = await app.call(deviceCalls.restartDevice, { deviceId: 'GW-D1' }, { token: w.aHome.token });
    expect(queued.status).toBe(200);
    const cases: [Record<string, string>, string][] = [
      [{ deviceId: 'GW-D1', newDeviceId: 'GW-D1' }, 'device.sameDevice'],
      [{ deviceId: 'GW-D1', newDeviceId: 'GW-NONE' }, 'device.notRegistered'],
      [{ deviceId: 'GW-D1', newDeviceId: 'GW-FILL-0' }, 'device.alreadyAdded'],
      [{ deviceId: 'GW-D1', newDeviceId: 'GW-SMOKE' }, 'device.typeMismatch'],
      [{ deviceId: 'GW-D1', newDeviceId: 'GW-BADGE' }, 'device.typeMismatch'],
      [{ deviceId: 'GW-B', newDeviceId: 'GW-D2' }, 'device.notFound'],
    ];
    for (const [input, key] of cases) {
      const r = await app.call(heReplaceDevice, input as never, { token: w.aHome.token });
      expect(r.msgKey, JSON.stringify(input)).toBe(key);
    }
    const r = await app.call(heReplaceDevice, { deviceId: 'gw-d1', newDeviceId: 'gw-d2' }, { token: w.aHome.token });
    expect(r.status, r.msg).toBe(200);
    expect(r.data).toMatchObject({ deviceId: 'GW-D2', telecom: 'not_registered', telecomMsg: null });
    const [host] = await hosts(w.aHome.token, { keyWord: 'GW-1' });
    expect(host?.subDevices.map((s) => [s.deviceId, s.name])).toEqual([
      ['GW-SMOKE', null],
      ['GW-IR', null],
      ['GW-D2', 'Door 1'],
    ]);
    const [command] = await app.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.id, queued.data?.commandId ?? 0));
    expect(command?.state).toBe('cancelled');
    // The old one is back in stock: B may add it.
    await addDevice(app, w.bGroup.token, 'GW-D1', T.door);
    const taken = await app.call(
      heReplaceDevice,
      { deviceId: 'GW-D2', newDeviceId: 'GW-D1' },
      { token: w.aHome.token },
    );
    expect(taken.msgKey).toBe('device.addedByOther');
  });

  it('replaces a host: its sub-devices move to the new host', async () => {
    const r = await app.call(heReplaceDevice, { deviceId: 'GW-1', newDeviceId: 'GW-NEW' }, { token: w.aGroup.token });
    expect(r.status, r.msg).toBe(200);
    const rows = await hosts(w.aHome.token, { keyWord: 'GW-NEW' });
    expect(rows[0]).toMatchObject({ deviceId: 'GW-NEW', name: 'Hall gateway', subDeviceCount: 3 });
    expect(rows[0]?.subDevices.every((s) => !s.paired)).toBe(true);
    expect((await hosts(w.aHome.token)).map((h) => h.deviceId)).toEqual(['GW-NEW', 'GW-2']);
  });

  it('replaces only gateway devices', async () => {
    await addDevice(app, w.aHome.token, 'GW-SLEEP', T.sleep);
    const r = await app.call(
      heReplaceDevice,
      { deviceId: 'GW-SLEEP', newDeviceId: 'GW-FILL-49' },
      { token: w.aHome.token },
    );
    expect([r.msgKey, r.msg]).toEqual([
      'device.notGatewayDevice',
      'Only gateway hosts and their sub-devices can be handled here.',
    ]);
  });

  it('deletes a sub-device or an empty host of the named type', async () => {
    expect((await remove('GW-SMOKE', T.door)).msgKey).toBe('device.typeMismatch');
    expect((await remove('GW-SLEEP', T.sleep)).msgKey).toBe('device.notGatewayDevice');
    expect((await remove('GW-B', T.gateway)).msgKey).toBe('device.notFound');
    const host = await remove('GW-NEW', T.gateway);
    expect([host.msgKey, host.msg]).toEqual([
      'device.hasSubDevices',
      'This gateway host still has 3 sub-devices. Remove them first.',
    ]);
    for (const id of ['GW-SMOKE', 'GW-IR', 'GW-D2']) {
      const r = await remove(id, id === 'GW-SMOKE' ? T.smoke : id === 'GW-IR' ? T.infrared : T.door);
      expect(r.status, `${id}: ${r.msg}`).toBe(200);
    }
    const empty = await remove('gw-new', T.gateway);
    expect(empty.data).toEqual({ telecom: 'not_registered', telecomMsg: null });
    expect((await hosts(w.aHome.token)).map((h) => h.deviceId)).toEqual(['GW-2']);
  });

  it('moves a host with its sub-devices to another provider (platform administrators only)', async () => {
    const target = await makeProvider(app, w.admin, 'Gw Target');
    await setLive(app, 'GW-FILL-0', { online: true });
    const queued = await app.call(deviceCalls.restartDevice, { deviceId: 'GW-FILL-0' }, { token: w.aHome.token });
    expect(queued.status).toBe(200);
    expect((await changProvider('GW-2', target.id, w.aGroup.token)).msgKey).toBe('no_permission');
    expect((await changProvider('GW-SLEEP', target.id, w.admin)).msgKey).toBe('device.notGateway');
    expect((await changProvider('GW-2', 999_999, w.admin)).msgKey).toBe('not_found');
    expect((await changProvider('GW-NONE', target.id, w.admin)).msgKey).toBe('device.notFound');
    const disabled = await makeProvider(app, w.admin, 'Gw Disabled');
    await app.call(operateProvider, { id: disabled.id, type: 'disable' }, { token: w.admin });
    const off = await changProvider('GW-2', disabled.id, w.admin);
    expect([off.msgKey, off.msg]).toEqual(['provider.disabled', 'This provider is disabled.']);

    const moved = await changProvider('GW-2', target.id, w.admin);
    expect(moved.status, moved.msg).toBe(200);
    expect(moved.data).toEqual({ moved: 50 });
    expect(await hosts(w.aHome.token)).toEqual([]);
    const targetToken = await app.login(target.userName, target.password);
    const [row] = await hosts(targetToken);
    expect(row).toMatchObject({ deviceId: 'GW-2', providerId: target.id, subDeviceCount: 49 });
    const [command] = await app.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.id, queued.data?.commandId ?? 0));
    expect(command).toMatchObject({ state: 'pending', providerId: target.id });
  });

  it('refuses to move devices that are on a bed', async () => {
    const target = await makeProvider(app, w.admin, 'Gw Target 2');
    expect((await app.call(heAddHost, { deviceId: 'GW-FILL-49' }, { token: w.aHome.token })).msgKey).toBe(
      'device.typeMismatch',
    );
    // A host on a bed is not something the console does; the rule still holds for any device.
    await loadStock(app, w.admin, [{ deviceId: 'GW-BED', deviceType: T.gateway }]);
    expect((await app.call(heAddHost, { deviceId: 'GW-BED' }, { token: w.aHome.token })).status).toBe(200);
    const { bedId } = await placeBed(app, w.aHome.id, { area: 'Gw Area', room: 'Gw Room', bed: 'Gw Bed' });
    await linkBed(app, bedId, 'GW-BED');
    const res = await changProvider('GW-BED', target.id, w.admin);
    expect([res.msgKey, res.msg]).toEqual([
      'device.linkedToBed',
      'This device is linked to bed Gw Room Gw Bed. Unlink it from the bed first.',
    ]);
    const senior = await makeAccount(app, w.admin, 'gwSenior', 'SENIOR_ROLE', {
      permissionType: 1,
      providerIds: [w.aHome.id],
    });
    const seniorToken = await app.login(senior.userName, senior.password);
    expect((await changProvider('GW-BED', target.id, seniorToken)).msgKey).toBe('not_found');
    expect((await changProvider('GW-B', w.aHome.id, seniorToken)).msgKey).toBe('device.notFound');
  });
});
