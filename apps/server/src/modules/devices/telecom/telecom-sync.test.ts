import { deviceCalls } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { devices } from '../../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../device-test-support.ts';
import { startFakeOperator, type FakeOperator } from './fake-operator.ts';

const { syncThirdDevice, syncAllThirdDevice, getDeviceList, deleteDevice, heReplaceDevice, heAddHost, heInsertDevice } =
  deviceCalls;

const IMEI = (n: number) => `86${String(n).padStart(13, '0')}`;

describeEachDb('operator platform sync (%s)', (target) => {
  let operator: FakeOperator;
  let app: TestApp;
  let w: DeviceWorld;

  const row = async (deviceId: string, token = w.aHome.token) =>
    (await app.call(getDeviceList, { keyWord: deviceId }, { token })).data?.rows.find((r) => r.deviceId === deviceId);
  const stored = async (deviceId: string) =>
    (await app.database.db.select().from(devices).where(eq(devices.deviceId, deviceId)))[0];

  beforeAll(async () => {
    operator = await startFakeOperator();
    app = await createTestApp(target, {
      env: { TELECOM_API_URL: operator.url, TELECOM_APP_KEY: operator.appKey, TELECOM_TIMEOUT_MS: '1500' },
    });
    w = await deviceWorld(app, 'Tel');
    await loadStock(app, w.admin, [
      { deviceId: 'TEL-NB1', deviceType: T.smoke, imei: IMEI(1), iccid: '89860000000000000001' },
      { deviceId: 'TEL-NB2', deviceType: T.sos, imei: IMEI(2) },
      { deviceId: 'TEL-4G1', deviceType: T.badge, imei4g: IMEI(3) },
      { deviceId: 'TEL-NB3', deviceType: T.watch, imei: IMEI(4) },
      { deviceId: 'TEL-WIFI', deviceType: T.sleepW },
      { deviceId: 'TEL-NOIMEI', deviceType: T.door },
      { deviceId: 'TEL-B1', deviceType: T.smoke, imei: IMEI(9) },
      { deviceId: 'TEL-GW', deviceType: T.gateway },
      { deviceId: 'TEL-SUB-OLD', deviceType: T.smoke, imei: IMEI(11) },
      { deviceId: 'TEL-SUB-NEW', deviceType: T.smoke, imei: IMEI(12) },
    ]);
    for (const [id, type] of [
      ['TEL-NB1', T.smoke],
      ['TEL-NB2', T.sos],
      ['TEL-4G1', T.badge],
      ['TEL-NB3', T.watch],
      ['TEL-WIFI', T.sleepW],
    ] as const) {
      await addDevice(app, w.aHome.token, id, type);
    }
    await addDevice(app, w.aHome.token, 'TEL-NOIMEI', T.door, { commMode: 'nb-iot' });
    await addDevice(app, w.bGroup.token, 'TEL-B1', T.smoke);
  });
  afterAll(async () => {
    await app?.close();
    await operator?.close();
  });

  it('registers an NB-IoT device and records the operator\u2019s status', async () => {
    const res = await app.call(syncThirdDevice, { deviceId: 'tel-nb1' }, { token: w.aHome.token });
    expect(res.status, res.msg).toBe(200);
    const id = res.data?.thirdPartyId ?? '';
    expect(res.data).toEqual({
      deviceId: 'TEL-NB1',
      thirdPartyId: id,
      thirdPartyStatus: 'offline',
      thirdPartySyncTime: app.clock.now().toISOString(),
    });
    expect(operator.devices.get(id)).toMatchObject({
      deviceName: 'TEL-NB1',
      imei: IMEI(1),
      iccid: '89860000000000000001',
    });
    expect(await row('TEL-NB1')).toMatchObject({ thirdPartyId: id, thirdPartyStatus: 'offline' });

    operator.setStatus(id, 'ONLINE');
    app.clock.advance(60_000);
    const before = operator.requests.length;
    const again = await app.call(syncThirdDevice, { deviceId: 'TEL-NB1' }, { token: w.aGroup.token });
    expect(again.data).toMatchObject({ thirdPartyId: id, thirdPartyStatus: 'online' });
    // A known registration is only read, not registered again.
    expect(operator.requests.slice(before).map((r) => r.method)).toEqual(['GET']);
    expect((await row('TEL-NB1'))?.thirdPartySyncTime).toBe(app.clock.now().toISOString());
  });

  it('registers a 4G device by its module IMEI, and again when the operator lost it', async () => {
    const first = await app.call(syncThirdDevice, { deviceId: 'TEL-4G1' }, { token: w.aHome.token });
    expect(first.status, first.msg).toBe(200);
    const id = first.data?.thirdPartyId ?? '';
    expect(operator.devices.get(id)?.imei).toBe(IMEI(3));
    operator.devices.delete(id);
    const second = await app.call(syncThirdDevice, { deviceId: 'TEL-4G1' }, { token: w.aHome.token });
    expect(second.status, second.msg).toBe(200);
    expect(second.data?.thirdPartyId).not.toBe(id);
    expect((await stored('TEL-4G1'))?.thirdPartyId).toBe(second.data?.thirdPartyId);
  });

  it('refuses devices the operator does not carry and other providers\u2019 devices', async () => {
    for (const deviceId of ['TEL-WIFI', 'TEL-NOIMEI']) {
      const res = await app.call(syncThirdDevice, { deviceId }, { token: w.aHome.token });
      expect([res.msgKey, res.msg]).toEqual([
        'telecom.notCellular',
        'Only NB-IoT and 4G devices with an IMEI are registered on the telecom platform.',
      ]);
    }
    const foreign = await app.call(syncThirdDevice, { deviceId: 'TEL-B1' }, { token: w.aGroup.token });
    expect(foreign.msgKey).toBe('device.notFound');
    expect((await stored('TEL-B1'))?.thirdPartyId).toBeNull();
  });

  it('answers operator failures with clear messages and keeps what was learnt', async () => {
    operator.refusedImeis.set(IMEI(2), 'SIM card not activated');
    const refused = await app.call(syncThirdDevice, { deviceId: 'TEL-NB2' }, { token: w.aHome.token, lang: 'zh-CN' });
    expect([refused.status, refused.msgKey, refused.msg]).toEqual([
      300,
      'telecom.rejected',
      '电信物联网平台拒绝了请求：SIM card not activated',
    ]);
    operator.refusedImeis.clear();
    operator.script({ status: 201, body: '{"deviceId":' });
    const unreadable = await app.call(syncThirdDevice, { deviceId: 'TEL-NB2' }, { token: w.aHome.token });
    expect([unreadable.msgKey, unreadable.msg]).toEqual([
      'telecom.badAnswer',
      'The telecom platform sent an answer that could not be read.',
    ]);
    // Registered, then the status read times out: the registration is kept.
    operator.script({ status: 201, body: { deviceId: 'CT777777' } }, { delayMs: 4_000, body: { status: 'ONLINE' } });
    const slow = await app.call(syncThirdDevice, { deviceId: 'TEL-NB2' }, { token: w.aHome.token });
    expect([slow.msgKey, slow.msg]).toEqual([
      'telecom.timeout',
      'The telecom platform did not answer in time. Try again later.',
    ]);
    expect(await stored('TEL-NB2')).toMatchObject({ thirdPartyId: 'CT777777', thirdPartyStatus: null });
    operator.script({ status: 500 });
    const down = await app.call(syncThirdDevice, { deviceId: 'TEL-NB2' }, { token: w.aHome.token });
    expect([down.msgKey, down.msg]).toEqual([
      'telecom.unavailable',
      'The telecom platform could not be reached. Try again later.',
    ]);
    operator.script({ status: 401 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const key = await app.call(syncThirdDevice, { deviceId: 'TEL-NB2' }, { token: w.aHome.token });
      expect([key.msgKey, key.msg]).toEqual([
        'telecom.unauthorized',
        'The telecom platform did not accept this platform\u2019s access key. Please contact your platform administrator.',
      ]);
      // The key's setting name goes to the server log, not to the provider.
      expect(warn.mock.calls.map(([message]) => String(message))).toEqual([expect.stringContaining('TELECOM_APP_KEY')]);
    } finally {
      warn.mockRestore();
    }
    // The operator never heard of CT777777: the next sync registers the device for real.
    const ok = await app.call(syncThirdDevice, { deviceId: 'TEL-NB2' }, { token: w.aHome.token });
    expect(ok.status, ok.msg).toBe(200);
    expect(ok.data?.thirdPartyId).toMatch(/^CT\d{6}$/);
    expect(ok.data?.thirdPartyId).not.toBe('CT777777');
    expect(operator.devices.get(ok.data?.thirdPartyId ?? '')?.imei).toBe(IMEI(2));
  });

  it('syncs every cellular device of the scope and lists the failures', async () => {
    operator.refusedImeis.set(IMEI(4), 'IMEI blacklisted');
    const res = await app.call(syncAllThirdDevice, { providerId: w.aHome.id }, { token: w.aGroup.token });
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toEqual({
      total: 4,
      synced: 3,
      failed: [
        {
          deviceId: 'TEL-NB3',
          msgKey: 'telecom.rejected',
          msg: 'The telecom platform refused the request: IMEI blacklisted',
        },
      ],
    });
    operator.refusedImeis.clear();
    // TEL-NOIMEI (no IMEI) and TEL-WIFI are not the operator's; B's device is not in the scope.
    expect((await stored('TEL-B1'))?.thirdPartyId).toBeNull();
    const foreign = await app.call(syncAllThirdDevice, { providerId: w.bGroup.id }, { token: w.aGroup.token });
    expect(foreign.msgKey).toBe('not_found');
    const b = await app.call(syncAllThirdDevice, {}, { token: w.bGroup.token });
    expect(b.data).toMatchObject({ total: 1, synced: 1, failed: [] });
  });

  it('removes the operator registration when a device returns to stock', async () => {
    const id = (await stored('TEL-NB1'))?.thirdPartyId ?? '';
    expect(operator.devices.has(id)).toBe(true);
    const res = await app.call(deleteDevice, { deviceId: 'TEL-NB1' }, { token: w.aHome.token });
    expect(res.data).toEqual({ telecom: 'removed', telecomMsg: null });
    expect(operator.devices.has(id)).toBe(false);
    // The operator failing does not undo the delete; the answer says what happened.
    operator.script({ status: 500 });
    const failed = await app.call(deleteDevice, { deviceId: 'TEL-4G1' }, { token: w.aHome.token, lang: 'zh-CN' });
    expect(failed.status).toBe(200);
    expect(failed.data).toEqual({ telecom: 'failed', telecomMsg: '无法连接电信物联网平台，请稍后重试。' });
    expect(await stored('TEL-4G1')).toBeUndefined();
  });

  it('removes the old sub-device\u2019s registration on a replacement', async () => {
    expect((await app.call(heAddHost, { deviceId: 'TEL-GW' }, { token: w.aHome.token })).status).toBe(200);
    const added = await app.call(
      heInsertDevice,
      { hostDeviceId: 'TEL-GW', deviceId: 'TEL-SUB-OLD', deviceType: T.smoke },
      { token: w.aHome.token },
    );
    expect(added.status, added.msg).toBe(200);
    const synced = await app.call(syncThirdDevice, { deviceId: 'TEL-SUB-OLD' }, { token: w.aHome.token });
    const oldId = synced.data?.thirdPartyId ?? '';
    const res = await app.call(
      heReplaceDevice,
      { deviceId: 'TEL-SUB-OLD', newDeviceId: 'TEL-SUB-NEW' },
      { token: w.aHome.token },
    );
    expect(res.data).toMatchObject({ deviceId: 'TEL-SUB-NEW', telecom: 'removed', telecomMsg: null });
    expect(operator.devices.has(oldId)).toBe(false);
    expect((await row('TEL-SUB-NEW'))?.commMode).toBe('nb-iot');
  });
});

describeEachDb('operator platform not configured (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'NoTel');
    await loadStock(app, w.admin, [{ deviceId: 'NOTEL-1', deviceType: T.smoke, imei: IMEI(1) }]);
    await addDevice(app, w.aHome.token, 'NOTEL-1', T.smoke);
  });
  afterAll(() => app?.close());

  it('answers telecom.disabled and says so on a delete', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      for (const res of [
        await app.call(syncThirdDevice, { deviceId: 'NOTEL-1' }, { token: w.aHome.token }),
        await app.call(syncAllThirdDevice, {}, { token: w.aHome.token }),
      ]) {
        expect([res.status, res.msgKey, res.msg]).toEqual([
          300,
          'telecom.disabled',
          'Registration with the telecom operator is not set up on this platform. Please contact your platform administrator.',
        ]);
      }
      const zh = await app.call(syncThirdDevice, { deviceId: 'NOTEL-1' }, { token: w.aHome.token, lang: 'zh-CN' });
      expect(zh.msg).toBe('本平台尚未开通电信物联网平台注册，请联系平台管理员。');
      // The provider reads no setting name; the server's operator finds it in the log, once.
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain('TELECOM_API_URL');
    } finally {
      warn.mockRestore();
    }
    await app.database.db.update(devices).set({ thirdPartyId: 'CT000042' }).where(eq(devices.deviceId, 'NOTEL-1'));
    const res = await app.call(deleteDevice, { deviceId: 'NOTEL-1' }, { token: w.aHome.token });
    expect(res.data).toEqual({ telecom: 'disabled', telecomMsg: null });
  });
});
