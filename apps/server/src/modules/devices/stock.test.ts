import { deviceCalls } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeAccount } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { addDevice, callerFor, deviceWorld, loadStock, T, type DeviceWorld } from './device-test-support.ts';

const { deviceStockImport, deviceStockList, deviceStockRemove, deleteDevice } = deviceCalls;

describeEachDb('device registry (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let senior: string;

  const list = async (token: string, input: Parameters<typeof app.call<typeof deviceStockList>>[1] = {}) => {
    const res = await app.call(deviceStockList, { pageSize: 1000, ...input }, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data ?? { rows: [], total: 0, pageNum: 1, pageSize: 10 };
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Stock');
    senior = await app.login((await makeAccount(app, w.admin, 'stockSenior', 'SENIOR_ROLE')).userName, 'Care#Home2026');
  });
  afterAll(() => app?.close());

  it('loads single and several entries, upper-casing IDs and filling the model from the catalogue', async () => {
    const res = await loadStock(app, w.admin, [{ deviceId: 'stk-sleep-1', deviceType: T.sleep, batch: 'B2026-01' }]);
    expect(res.data).toEqual({ added: 1 });
    await loadStock(app, senior, [
      {
        deviceId: 'STK-NB-1',
        deviceType: T.smoke,
        imei: '861234567890123',
        iccid: '89860012345678901234',
        cipherId: 'c1PHER/stk+1=',
        firmwareType: 'smoke-nb',
        model: 'yg-09n',
      },
      { deviceId: 'STK-GW-1', deviceType: T.gateway },
    ]);
    const { rows } = await list(w.admin, { keyWord: 'stk-' });
    expect(rows.map((r) => r.deviceId)).toEqual(['STK-GW-1', 'STK-NB-1', 'STK-SLEEP-1']);
    expect(rows.find((r) => r.deviceId === 'STK-SLEEP-1')).toMatchObject({
      deviceType: T.sleep,
      model: 'BM8701-2',
      batch: 'B2026-01',
      stockState: 'in_stock',
      providerId: null,
      providerName: null,
    });
    expect(rows.find((r) => r.deviceId === 'STK-NB-1')).toMatchObject({
      model: 'YG-09N',
      imei: '861234567890123',
      iccid: '89860012345678901234',
      cipherId: 'c1PHER/stk+1=',
      firmwareType: 'smoke-nb',
    });
  });

  it('refuses a list with problems as a whole and names every bad entry', async () => {
    await loadStock(app, w.admin, [{ deviceId: 'STK-TAKEN', deviceType: T.door, cipherId: 'TAKENCIPHER' }]);
    const res = await app.call(
      deviceStockImport,
      {
        rows: [
          { deviceId: 'STK-OK-1', deviceType: T.door },
          { deviceId: 'STK-TAKEN', deviceType: T.door },
          { deviceId: 'STK-OK-2', deviceType: T.door, cipherId: 'TAKENCIPHER' },
          { deviceId: 'stk-ok-1', deviceType: T.door },
          { deviceId: 'STK-MODEL', deviceType: T.door, model: 'YG-09N' },
          { deviceId: 'STK-CIPHER-A', deviceType: T.door, cipherId: 'SAMECIPHER' },
          { deviceId: 'STK-CIPHER-B', deviceType: T.door, cipherId: 'SAMECIPHER' },
        ],
      },
      { token: w.admin },
    );
    expect(res.status).toBe(400);
    expect(res.msgKey).toBe('deviceStock.rowErrors');
    expect(res.msg).toBe('5 problems found; nothing was added. Fix the entries listed and try again.');
    const problems = (res.data as unknown as { problems: { index: number; field: string; msgKey: string }[] }).problems;
    expect(problems.map((p) => [p.index, p.field, p.msgKey])).toEqual([
      [1, 'deviceId', 'deviceStock.exists'],
      [2, 'cipherId', 'deviceStock.cipherExists'],
      [3, 'deviceId', 'deviceStock.duplicate'],
      [4, 'model', 'deviceStock.modelMismatch'],
      [6, 'cipherId', 'deviceStock.duplicate'],
    ]);
    expect(res.data).toMatchObject({
      problems: expect.arrayContaining([
        expect.objectContaining({ index: 3, msg: 'repeats entry 1 of this list.' }),
        expect.objectContaining({ index: 4, msg: 'The model does not match the device type (expected MC-N01).' }),
      ]),
    });
    expect((await list(w.admin, { keyWord: 'STK-OK' })).rows).toEqual([]);
    expect((await list(w.admin, { keyWord: 'STK-CIPHER' })).rows).toEqual([]);
  });

  it('answers the contract checks of an entry with localised 400s naming the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ deviceId: 'BAD ID', deviceType: T.door }, 'device.idFormat', '设备编号格式错误：只能包含数字、字母和“-”。'],
      [{ deviceId: 'STK-X', deviceType: 50 }, 'device.typeUnknown', '设备类型不是已知的设备类型。'],
      [{ deviceId: 'STK-X', deviceType: T.door, imei: '12345' }, 'device.imeiFormat', 'IMEI必须是 15 位数字。'],
      [
        { deviceId: 'STK-X', deviceType: T.door, imei4g: '86123456789012A' },
        'device.imeiFormat',
        '4G 模组 IMEI必须是 15 位数字。',
      ],
      [
        { deviceId: 'STK-X', deviceType: T.door, iccid: '8986' },
        'device.iccidFormat',
        'SIM 卡 ICCID必须是 18 到 20 位数字，末尾可带一位校验字符。',
      ],
      [
        { deviceId: 'STK-X', deviceType: T.door, batch: 'x'.repeat(65) },
        'validation.maxLength',
        '批次最多 64 个字符。',
      ],
    ];
    for (const [row, key, zh] of cases) {
      const res = await app.call(deviceStockImport, { rows: [row] as never }, { token: w.admin, lang: 'zh-CN' });
      expect([res.status, res.msgKey], JSON.stringify(row)).toEqual([400, key]);
      if (key !== 'validation.maxLength') expect(res.msg).toBe(zh);
    }
    const empty = await app.call(deviceStockImport, { rows: [] }, { token: w.admin });
    expect([empty.status, empty.msgKey, empty.msg]).toEqual([
      300,
      'deviceStock.empty',
      'Add at least one registry entry.',
    ]);
  });

  it('is for device administrators only', async () => {
    for (const token of [w.aGroup.token, w.aHome.token]) {
      const res = await app.call(deviceStockImport, { rows: [{ deviceId: 'STK-NO', deviceType: T.door }] }, { token });
      expect(res.msgKey).toBe('no_permission');
      expect((await app.call(deviceStockList, {}, { token })).msgKey).toBe('no_permission');
      expect((await app.call(deviceStockRemove, { deviceId: 'STK-NO' }, { token })).msgKey).toBe('no_permission');
    }
    const business = await makeAccount(app, w.admin, 'stockBusiness', 'BUSINESS_ROLE');
    const token = await app.login(business.userName, business.password);
    expect((await app.call(deviceStockList, {}, { token })).msgKey).toBe('no_permission');
  });

  it('shows which provider added an entry, filters by state, type and keyword', async () => {
    await loadStock(app, w.admin, [
      { deviceId: 'STK-STATE-A', deviceType: T.sleep },
      { deviceId: 'STK-STATE-B', deviceType: T.sleep },
      { deviceId: 'STK-STATE-C', deviceType: T.badge },
    ]);
    await addDevice(app, w.aHome.token, 'stk-state-a', T.sleep);
    await addDevice(app, w.bGroup.token, 'STK-STATE-B', T.sleep);
    const { rows, total } = await list(w.admin, { keyWord: 'state' });
    expect(total).toBe(3);
    expect(rows.map((r) => [r.deviceId, r.stockState, r.providerName])).toEqual([
      ['STK-STATE-C', 'in_stock', null],
      ['STK-STATE-B', 'added', 'Stock Group B'],
      ['STK-STATE-A', 'added', 'Stock Home A'],
    ]);
    expect((await list(w.admin, { keyWord: 'state', stockState: 'in_stock' })).rows.map((r) => r.deviceId)).toEqual([
      'STK-STATE-C',
    ]);
    expect((await list(w.admin, { keyWord: 'state', stockState: 'added' })).total).toBe(2);
    expect((await list(w.admin, { keyWord: 'state', deviceType: T.badge })).rows.map((r) => r.deviceId)).toEqual([
      'STK-STATE-C',
    ]);
    // Pages.
    const page = await app.call(deviceStockList, { keyWord: 'state', pageNum: 2, pageSize: 2 }, { token: w.admin });
    expect(page.data).toMatchObject({ total: 3, pageNum: 2, pageSize: 2 });
    expect(page.data?.rows.map((r) => r.deviceId)).toEqual(['STK-STATE-A']);
    // A deleted device is back in stock.
    expect((await app.call(deleteDevice, { deviceId: 'STK-STATE-B' }, { token: w.bGroup.token })).status).toBe(200);
    expect((await list(w.admin, { keyWord: 'STK-STATE-B' })).rows[0]).toMatchObject({
      stockState: 'in_stock',
      providerName: null,
    });
  });

  it('shows an administrator limited to some providers only their devices and the entries in stock', async () => {
    await loadStock(app, w.admin, [
      { deviceId: 'STK-LIM-A', deviceType: T.sleep },
      { deviceId: 'STK-LIM-B', deviceType: T.sleep },
      { deviceId: 'STK-LIM-FREE', deviceType: T.sleep },
    ]);
    await addDevice(app, w.aHome.token, 'STK-LIM-A', T.sleep);
    await addDevice(app, w.bGroup.token, 'STK-LIM-B', T.sleep);
    const limited = await makeAccount(app, w.admin, 'stockLimited', 'SENIOR_ROLE', {
      permissionType: 1,
      providerIds: [w.aGroup.id, w.aHome.id],
    });
    const token = await app.login(limited.userName, limited.password);
    const { rows, total } = await list(token, { keyWord: 'STK-LIM' });
    expect(total).toBe(2);
    expect(rows.map((r) => [r.deviceId, r.providerName])).toEqual([
      ['STK-LIM-FREE', null],
      ['STK-LIM-A', 'Stock Home A'],
    ]);
    expect(JSON.stringify(await list(token, { pageSize: 1000 }))).not.toContain('Stock Group B');
  });

  it('removes an entry only while it is in stock', async () => {
    await loadStock(app, w.admin, [
      { deviceId: 'STK-RM-1', deviceType: T.door },
      { deviceId: 'STK-RM-2', deviceType: T.door },
    ]);
    await addDevice(app, w.aGroup.token, 'STK-RM-2', T.door);
    const unknown = await app.call(deviceStockRemove, { deviceId: 'STK-RM-NONE' }, { token: w.admin });
    expect([unknown.msgKey, unknown.msg]).toEqual([
      'device.notRegistered',
      'This device ID is not registered on the platform.',
    ]);
    const added = await app.call(deviceStockRemove, { deviceId: 'stk-rm-2' }, { token: w.admin });
    expect([added.msgKey, added.msg]).toEqual([
      'device.notInStock',
      'This device is not in stock: a provider has added it. It must be removed there first.',
    ]);
    expect((await app.call(deviceStockRemove, { deviceId: 'stk-rm-1' }, { token: senior })).status).toBe(200);
    expect((await list(w.admin, { keyWord: 'STK-RM' })).rows.map((r) => r.deviceId)).toEqual(['STK-RM-2']);
    // Registered again after removal.
    await loadStock(app, w.admin, [{ deviceId: 'STK-RM-1', deviceType: T.smoke }]);
  });

  it('gives the batch method of a later spreadsheet import per-row problems and writes nothing then', async () => {
    const caller = await callerFor(app, w.admin);
    const { db } = app.database;
    const refused = await db.transaction((tx) =>
      app.services.devices.stock.addMany(
        caller,
        [
          { deviceId: 'STK-BATCH-1', deviceType: T.door },
          { deviceId: 'bad id!', deviceType: T.door },
          { deviceType: 1 },
        ],
        tx,
      ),
    );
    expect(refused.added).toBe(0);
    expect(refused.problems).toEqual([
      { index: 1, field: 'deviceId', key: 'device.idFormat', params: {} },
      { index: 2, field: 'deviceId', key: 'validation.required', params: {} },
    ]);
    expect((await list(w.admin, { keyWord: 'STK-BATCH' })).total).toBe(0);
    const accepted = await db.transaction((tx) =>
      app.services.devices.stock.addMany(
        caller,
        [
          { deviceId: 'STK-BATCH-1', deviceType: T.door },
          { deviceId: 'STK-BATCH-2', deviceType: T.door },
        ],
        tx,
      ),
    );
    expect(accepted).toEqual({ added: 2, problems: [] });
    expect((await list(w.admin, { keyWord: 'STK-BATCH' })).total).toBe(2);
  });

  it('answers concurrent imports of one ID with one success and deviceStock.exists', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.call(deviceStockImport, { rows: [{ deviceId: 'STK-RACE', deviceType: T.door }] }, { token: w.admin }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.msgKey === 'deviceStock.exists' || r.msgKey === 'deviceStock.rowErrors', r.msg).toBe(true);
      expect(r.status).not.toBe(500);
    }
  });
});
