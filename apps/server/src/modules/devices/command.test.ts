import { adminLogin, deviceCalls } from '@vigil/contract';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deviceCommands } from '../../db/schema.ts';
import { makeAccount } from '../../test/fixtures.ts';
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

const { getDeviceList, restartDevice, updateInterval, updateAlgMode, forceInitSensor, heAddHost } = deviceCalls;

/** Commands are queued durably for the device gateway (a later issue); nothing here claims delivery. */
describeEachDb('device commands (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;

  const commandsOf = (deviceId: string) =>
    app.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.deviceId, deviceId))
      .orderBy(asc(deviceCommands.id));
  const rowOf = async (deviceId: string) => {
    const res = await app.call(getDeviceList, { keyWord: deviceId }, { token: w.aHome.token });
    return res.data?.rows.find((r) => r.deviceId === deviceId);
  };
  /** Form calls as a browser sends them. */
  const postForm = async (path: string, fields: Record<string, string>, token: string, lang = 'en-US') => {
    const res = await app.app.inject({
      method: 'POST',
      url: path,
      headers: { 'x-token': token, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
      payload: new URLSearchParams(fields).toString(),
    });
    return JSON.parse(res.body) as {
      status: number;
      msg: string;
      msgKey?: string;
      data: Record<string, unknown> | null;
    };
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Cmd');
    await loadStock(app, w.admin, [
      { deviceId: 'CMD-S1', deviceType: T.sleep },
      { deviceId: 'CMD-S2', deviceType: T.sleep },
      { deviceId: 'CMD-F1', deviceType: T.fallDomestic },
      { deviceId: 'CMD-D1', deviceType: T.door },
      { deviceId: 'CMD-GW', deviceType: T.gateway },
      { deviceId: 'CMD-B1', deviceType: T.sleep },
    ]);
    for (const [id, type] of [
      ['CMD-S1', T.sleep],
      ['CMD-S2', T.sleep],
      ['CMD-F1', T.fallDomestic],
      ['CMD-D1', T.door],
    ] as const) {
      await addDevice(app, w.aHome.token, id, type);
    }
    await app.call(heAddHost, { deviceId: 'CMD-GW' }, { token: w.aHome.token });
    await addDevice(app, w.bGroup.token, 'CMD-B1', T.sleep);
  });
  afterAll(() => app?.close());

  describe('restart', () => {
    it('goes only to online devices', async () => {
      const res = await app.call(restartDevice, { deviceId: 'CMD-S1' }, { token: w.aHome.token });
      expect([res.status, res.msgKey, res.msg]).toEqual([
        300,
        'device.restartOffline',
        'Restart can only be sent to online devices.',
      ]);
      const zh = await app.call(restartDevice, { deviceId: 'CMD-S1' }, { token: w.aHome.token, lang: 'zh-CN' });
      expect(zh.msg).toBe('只能重启在线的设备。');
      expect(await commandsOf('CMD-S1')).toEqual([]);
    });

    it('is queued as pending for an online device, superseding an older pending restart', async () => {
      await setLive(app, 'CMD-S1', { online: true });
      const first = await app.call(restartDevice, { deviceId: 'cmd-s1' }, { token: w.aHome.token });
      expect(first.status, first.msg).toBe(200);
      expect(first.data).toMatchObject({ command: 'restart', state: 'pending' });
      expect(first.data?.queuedTime).toBe(app.clock.now().toISOString());
      const second = await app.call(restartDevice, { deviceId: 'CMD-S1' }, { token: w.aGroup.token });
      expect(second.status).toBe(200);
      const rows = await commandsOf('CMD-S1');
      expect(rows.map((r) => [r.id, r.command, r.state])).toEqual([
        [first.data?.commandId, 'restart', 'superseded'],
        [second.data?.commandId, 'restart', 'pending'],
      ]);
      expect(rows[1]?.providerId).toBe(w.aHome.id);
      expect((await rowOf('CMD-S1'))?.pendingCommands).toEqual(['restart']);
      const audit = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'device.command.restart'));
      expect(audit.map((a) => a.targetId)).toEqual(['CMD-S1', 'CMD-S1']);
    });

    it('cannot reach another provider\u2019s device', async () => {
      await setLive(app, 'CMD-B1', { online: true });
      const res = await app.call(restartDevice, { deviceId: 'CMD-B1' }, { token: w.aGroup.token });
      expect(res.msgKey).toBe('device.notFound');
      expect(await commandsOf('CMD-B1')).toEqual([]);
    });

    it('is allowed to installers and refused to government viewers', async () => {
      const installer = await makeAccount(app, w.aHome.token, 'cmdInstaller', 'MAINTAIN');
      const res = await app.call(adminLogin, {
        userName: installer.userName,
        passWord: installer.password,
        from: 'APP',
      });
      const token = res.data?.token ?? '';
      expect((await app.call(restartDevice, { deviceId: 'CMD-S1' }, { token })).status).toBe(200);
      const gov = await makeAccount(app, w.aGroup.token, 'cmdGov', 'GOVERNMENT');
      const govToken = await app.login(gov.userName, gov.password);
      expect((await app.call(restartDevice, { deviceId: 'CMD-S1' }, { token: govToken })).msgKey).toBe('no_permission');
    });
  });

  describe('reporting interval', () => {
    it('takes 1 to 254 seconds and keeps the requested value on the device', async () => {
      for (const interval of [0, 255, -1]) {
        const res = await app.call(updateInterval, { deviceId: 'CMD-S2', interval }, { token: w.aHome.token });
        expect([res.status, res.msgKey]).toEqual([400, interval > 254 ? 'validation.max' : 'validation.min']);
      }
      const low = await app.call(updateInterval, { deviceId: 'CMD-S2', interval: 0 }, { token: w.aHome.token });
      expect(low.msg).toBe('Reporting interval must be at least 1.');
      for (const interval of [1, 254, 60]) {
        const res = await app.call(updateInterval, { deviceId: 'CMD-S2', interval }, { token: w.aHome.token });
        expect(res.data).toMatchObject({ command: 'interval', state: 'pending' });
      }
      const rows = await commandsOf('CMD-S2');
      expect(rows.map((r) => [r.state, r.payload])).toEqual([
        ['superseded', { interval: 1 }],
        ['superseded', { interval: 254 }],
        ['pending', { interval: 60 }],
      ]);
      expect(await rowOf('CMD-S2')).toMatchObject({ reportInterval: 60, pendingCommands: ['interval'] });
    });
  });

  describe('algorithm mode (form)', () => {
    it('is for sleep monitors and fall radars', async () => {
      const door = await postForm('/device/updateAlgMode', { deviceId: 'CMD-D1', algMode: '1' }, w.aHome.token);
      expect([door.msgKey, door.msg]).toEqual([
        'device.algModeNotSupported',
        'This type of device has no algorithm mode.',
      ]);
      const fall = await postForm('/device/updateAlgMode', { deviceId: 'CMD-F1', algMode: '2' }, w.aHome.token);
      expect(fall.status, fall.msg).toBe(200);
      expect(fall.data).toMatchObject({ command: 'alg_mode', state: 'pending' });
      expect(await rowOf('CMD-F1')).toMatchObject({ algMode: 2, pendingCommands: ['alg_mode'] });
      const bad = await postForm('/device/updateAlgMode', { deviceId: 'CMD-F1', algMode: '256' }, w.aHome.token);
      expect([bad.status, bad.msgKey, bad.msg]).toEqual([400, 'validation.max', 'Algorithm mode must be at most 255.']);
      const typed = await app.call(updateAlgMode, { deviceId: 'CMD-S1', algMode: 0 }, { token: w.aHome.token });
      expect(typed.status).toBe(200);
    });
  });

  describe('sensor initialisation (form)', () => {
    it('needs a sleep monitor installed on a bed, confirmed empty', async () => {
      const door = await postForm('/device/forceInitSensor', { deviceId: 'CMD-D1', emptyBed: 'true' }, w.aHome.token);
      expect([door.msgKey, door.msg]).toEqual([
        'device.initNotSupported',
        'Only sleep monitors have a sensor to initialise.',
      ]);
      const loose = await postForm('/device/forceInitSensor', { deviceId: 'CMD-S2', emptyBed: 'true' }, w.aHome.token);
      expect([loose.msgKey, loose.msg]).toEqual([
        'device.initNotInstalled',
        'Link the sensor to a bed first: an installed sensor is initialised on its bed.',
      ]);
      const { bedId } = await placeBed(app, w.aHome.id, {
        area: 'Cmd Area',
        room: 'R1',
        bed: 'B1',
        resident: 'Li Lei',
      });
      await linkBed(app, bedId, 'CMD-S2');
      const occupied = await postForm(
        '/device/forceInitSensor',
        { deviceId: 'CMD-S2', emptyBed: 'false' },
        w.aHome.token,
        'zh-CN',
      );
      expect([occupied.msgKey, occupied.msg]).toEqual([
        'device.initBedNotEmpty',
        '请在空床状态下初始化传感器：确认床上无人后再操作。',
      ]);
      const missing = await postForm('/device/forceInitSensor', { deviceId: 'CMD-S2' }, w.aHome.token);
      expect([missing.status, missing.msgKey, missing.msg]).toEqual([
        400,
        'validation.required',
        'Empty bed confirmation is required.',
      ]);
      expect((await commandsOf('CMD-S2')).filter((c) => c.command === 'force_init')).toEqual([]);
      const ok = await postForm('/device/forceInitSensor', { deviceId: 'CMD-S2', emptyBed: 'true' }, w.aHome.token);
      expect(ok.status, ok.msg).toBe(200);
      expect(ok.data).toMatchObject({ command: 'force_init', state: 'pending' });
      expect(await rowOf('CMD-S2')).toMatchObject({
        sensorInitialised: false,
        pendingCommands: ['interval', 'force_init'],
      });
      const typed = await app.call(forceInitSensor, { deviceId: 'CMD-S2', emptyBed: true }, { token: w.aHome.token });
      expect(typed.status).toBe(200);
    });
  });

  describe('the device gateway\u2019s side', () => {
    it('takes pending commands in order and records sent, acknowledged and failed', async () => {
      const commands = app.services.devices.commands;
      const pending = await commands.pendingFor('cmd-s2');
      expect(pending.map((c) => c.command)).toEqual(['interval', 'force_init']);
      const [interval, init] = pending;
      if (!interval || !init) throw new Error('commands missing');
      expect(await commands.markSent(interval.id)).toBe(true);
      // Sent again when the device reconnects without having answered.
      expect((await commands.undeliveredFor('CMD-S2')).map((c) => c.id)).toEqual([interval.id, init.id]);
      expect(await commands.markSent(interval.id)).toBe(true);
      // Only the device a command was addressed to may answer it.
      expect(await commands.acknowledge('CMD-S1', interval.id, false, 'not mine')).toBe(false);
      expect(await commands.acknowledge('cmd-s2', interval.id, false, 'device did not answer')).toBe(true);
      expect(await commands.markSent(interval.id)).toBe(false);
      expect(await commands.markAcked(interval.id)).toBe(false);
      expect(await commands.acknowledge('CMD-S2', init.id, true)).toBe(true);
      expect(await commands.markAcked(999_999)).toBe(false);
      const rows = await commandsOf('CMD-S2');
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(interval.id)).toMatchObject({ state: 'failed', attempts: 2, error: 'device did not answer' });
      expect(byId.get(interval.id)?.sentAt).not.toBeNull();
      expect(byId.get(init.id)?.state).toBe('acked');
      // An acknowledged initialisation is the only thing that marks the sensor initialised.
      expect(await rowOf('CMD-S2')).toMatchObject({ sensorInitialised: true, pendingCommands: [] });
      expect(await commands.pendingFor('CMD-S2')).toEqual([]);
    });
  });
});
