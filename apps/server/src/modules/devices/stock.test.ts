import { deviceCalls } from '@vigil/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog, deviceStock } from '../../db/schema.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { verifyDeviceSecret } from '../gateway/index.ts';
import { addDevice, callerFor, deviceWorld, loadStock, T, type DeviceWorld } from './device-test-support.ts';

const { deviceStockImport, deviceStockList, deviceStockRemove, deviceStockSetSecret, deleteDevice } = deviceCalls;

/** Device secrets of the tests: 16 to 128 visible ASCII characters. */
const SECRET_A = 'Sl33p-Pad#2026-secret';
const SECRET_B = 'an0ther!Secret_of-the-pad';

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

  // --- Device secrets (issue 9) --------------------------------------------------------------

  const hashOf = async (deviceId: string) => {
    const [row] = await app.database.db
      .select({ hash: deviceStock.secretHash, at: deviceStock.secretSetAt })
      .from(deviceStock)
      .where(eq(deviceStock.deviceId, deviceId));
    return row;
  };
  const auditsOf = (action: string, targetIds: string[]) =>
    app.database.db
      .select({ targetId: auditLog.targetId, detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.action, action), inArray(auditLog.targetId, targetIds)))
      .orderBy(auditLog.id);

  it('loads entries with and without secrets, keeping only a hash, and lists whether one is set', async () => {
    app.clock.set(new Date('2026-03-01T09:30:00Z'));
    await loadStock(app, w.admin, [
      { deviceId: 'STK-SEC-1', deviceType: T.sleep, secret: SECRET_A },
      { deviceId: 'STK-SEC-2', deviceType: T.sleep },
      { deviceId: 'STK-SEC-3', deviceType: T.door, secret: SECRET_B },
    ]);
    const listed = await list(w.admin, { keyWord: 'STK-SEC-' });
    expect(listed.rows.map((r) => [r.deviceId, r.hasSecret, r.secretSetTime])).toEqual([
      ['STK-SEC-3', true, '2026-03-01T09:30:00.000Z'],
      ['STK-SEC-2', false, null],
      ['STK-SEC-1', true, '2026-03-01T09:30:00.000Z'],
    ]);
    const stored = await hashOf('STK-SEC-1');
    expect(stored?.hash).toMatch(/^scrypt\$/);
    expect(await verifyDeviceSecret(SECRET_A, stored?.hash ?? '')).toBe(true);
    expect(await verifyDeviceSecret(SECRET_B, stored?.hash ?? '')).toBe(false);
    expect(await verifyDeviceSecret(SECRET_B, (await hashOf('STK-SEC-3'))?.hash ?? '')).toBe(true);
    expect((await hashOf('STK-SEC-2'))?.hash).toBeNull();
    // Neither the secret nor its hash ever leaves the server, not even in the audit log.
    const answer = JSON.stringify(listed);
    for (const hidden of [SECRET_A, SECRET_B, stored?.hash ?? 'x', 'scrypt$']) expect(answer).not.toContain(hidden);
    const audits = await app.database.db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(eq(auditLog.action, 'deviceStock.import'));
    const text = JSON.stringify(audits);
    expect(text).not.toContain(SECRET_A);
    expect(text).not.toContain('scrypt$');
    expect(audits.at(-1)?.detail).toMatchObject({ count: 3, secrets: 2 });
  });

  it('refuses a bad secret with a localised message naming the field, and loads nothing', async () => {
    const bad = [
      'short-secret',
      'has a space in the secret',
      'x'.repeat(129),
      'ünïcödé-secret-123456',
      'tab\there-and-long-enough',
      '',
    ];
    for (const secret of bad) {
      const res = await app.call(
        deviceStockImport,
        { rows: [{ deviceId: 'STK-BADSEC', deviceType: T.door, secret }] },
        { token: w.admin },
      );
      expect([res.status, res.msgKey], JSON.stringify(secret)).toEqual([400, 'device.secretFormat']);
      expect(res.field).toBe('rows.0.secret');
      expect(res.msg).toBe(
        'Device secret must be 16 to 128 characters: letters A–Z and a–z, digits and symbols, without spaces.',
      );
    }
    const zh = await app.call(
      deviceStockImport,
      { rows: [{ deviceId: 'STK-BADSEC', deviceType: T.door, secret: 'short' }] },
      { token: w.admin, lang: 'zh-CN' },
    );
    expect(zh.msg).toBe('设备密钥须为 16 到 128 个字符，只能包含英文字母、数字和符号，不能有空格。');
    // The batch method of the spreadsheet import names the row and the field.
    const caller = await callerFor(app, w.admin);
    const refused = await app.database.db.transaction((tx) =>
      app.services.devices.stock.addMany(
        caller,
        [
          { deviceId: 'STK-BADSEC-1', deviceType: T.door, secret: SECRET_A },
          { deviceId: 'STK-BADSEC-2', deviceType: T.door, secret: 'too short' },
        ],
        tx,
      ),
    );
    expect(refused).toEqual({
      added: 0,
      problems: [{ index: 1, field: 'secret', key: 'device.secretFormat', params: {} }],
    });
    // The longest and shortest secrets are fine; every visible ASCII character is.
    await loadStock(app, w.admin, [
      { deviceId: 'STK-SECLEN-1', deviceType: T.door, secret: '!'.repeat(16) },
      { deviceId: 'STK-SECLEN-2', deviceType: T.door, secret: '~'.repeat(128) },
      {
        deviceId: 'STK-SECLEN-3',
        deviceType: T.door,
        secret: Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join(''),
      },
    ]);
    expect((await list(w.admin, { keyWord: 'STK-BADSEC' })).total).toBe(0);
    expect((await list(w.admin, { keyWord: 'STK-SECLEN' })).rows.every((r) => r.hasSecret)).toBe(true);
  });

  it('sets a given secret, then rotates it to a generated one that alone verifies', async () => {
    await loadStock(app, w.admin, [
      { deviceId: 'STK-ROT-1', deviceType: T.sleep },
      { deviceId: 'STK-ROT-2', deviceType: T.sleep },
    ]);
    app.clock.set(new Date('2026-03-02T10:00:00Z'));
    const set = await app.call(deviceStockSetSecret, { deviceId: 'stk-rot-1', secret: SECRET_A }, { token: w.admin });
    expect(set.status, set.msg).toBe(200);
    expect(set.data).toEqual({ deviceId: 'STK-ROT-1', secret: SECRET_A });
    const first = await hashOf('STK-ROT-1');
    expect(await verifyDeviceSecret(SECRET_A, first?.hash ?? '')).toBe(true);
    expect((await list(w.admin, { keyWord: 'STK-ROT-1' })).rows[0]).toMatchObject({
      hasSecret: true,
      secretSetTime: '2026-03-02T10:00:00.000Z',
    });

    app.clock.set(new Date('2026-03-03T11:00:00Z'));
    const rotated = await app.call(deviceStockSetSecret, { deviceId: 'STK-ROT-1' }, { token: senior });
    expect(rotated.status, rotated.msg).toBe(200);
    const generated = rotated.data?.secret ?? '';
    expect(rotated.data?.deviceId).toBe('STK-ROT-1');
    expect(generated).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(generated).not.toBe(SECRET_A);
    const second = await hashOf('STK-ROT-1');
    expect(second?.hash).not.toBe(first?.hash);
    expect(await verifyDeviceSecret(generated, second?.hash ?? '')).toBe(true);
    expect(await verifyDeviceSecret(SECRET_A, second?.hash ?? '')).toBe(false);
    const row = (await list(w.admin, { keyWord: 'STK-ROT-1' })).rows[0];
    expect(row).toMatchObject({ hasSecret: true, secretSetTime: '2026-03-03T11:00:00.000Z' });
    expect(JSON.stringify(row)).not.toContain(generated);

    // Each generated secret is new.
    const again = await app.call(deviceStockSetSecret, { deviceId: 'STK-ROT-1' }, { token: w.admin });
    expect(again.data?.secret).not.toBe(generated);

    // An Idempotency-Key never makes the server keep (and replay) an answer holding a secret.
    const keyed = async () =>
      JSON.parse(
        (
          await app.app.inject({
            method: 'POST',
            url: deviceStockSetSecret.path,
            headers: { 'x-token': w.admin, 'content-type': 'application/json', 'idempotency-key': 'same-key-1' },
            payload: JSON.stringify({ deviceId: 'STK-ROT-2' }),
          })
        ).body,
      ) as { data?: { secret: string } };
    const [k1, k2] = [await keyed(), await keyed()];
    expect(k1.data?.secret).toBeTruthy();
    expect(k2.data?.secret).not.toBe(k1.data?.secret);

    // Audited as set or rotated, never with the secret or its hash.
    const audits = await auditsOf('deviceStock.secret', ['STK-ROT-1']);
    expect(audits.map((a) => a.detail)).toEqual([
      { rotated: false, generated: false },
      { rotated: true, generated: true },
      { rotated: true, generated: true },
    ]);
    const text = JSON.stringify(audits);
    for (const hidden of [SECRET_A, generated, 'scrypt$']) expect(text).not.toContain(hidden);
  });

  it('refuses a secret for unknown entries, bad secrets and anyone but device administrators', async () => {
    const unknown = await app.call(deviceStockSetSecret, { deviceId: 'STK-SEC-NONE' }, { token: w.admin });
    expect([unknown.status, unknown.msgKey, unknown.field, unknown.msg]).toEqual([
      300,
      'device.notRegistered',
      'deviceId',
      'This device ID is not registered on the platform.',
    ]);
    await loadStock(app, w.admin, [{ deviceId: 'STK-SEC-GUARD', deviceType: T.door }]);
    const bad = await app.call(
      deviceStockSetSecret,
      { deviceId: 'STK-SEC-GUARD', secret: 'not a secret' },
      { token: w.admin },
    );
    expect([bad.status, bad.msgKey, bad.field]).toEqual([400, 'device.secretFormat', 'secret']);
    expect(bad.msg).toContain('Device secret must be 16 to 128 characters');

    const business = await makeAccount(app, w.admin, 'stockSecretBiz', 'BUSINESS_ROLE');
    const businessToken = await app.login(business.userName, business.password);
    for (const token of [w.aGroup.token, w.aHome.token, businessToken]) {
      const res = await app.call(deviceStockSetSecret, { deviceId: 'STK-SEC-GUARD', secret: SECRET_A }, { token });
      expect(res.msgKey).toBe('no_permission');
    }
    expect((await hashOf('STK-SEC-GUARD'))?.hash).toBeNull();
    expect((await app.call(deviceStockSetSecret, { deviceId: 'STK-SEC-GUARD' }, { token: null })).status).not.toBe(200);
  });

  it('lets an administrator limited to some providers set secrets only on entries the list shows them', async () => {
    await loadStock(app, w.admin, [
      { deviceId: 'STK-SECLIM-A', deviceType: T.sleep },
      { deviceId: 'STK-SECLIM-B', deviceType: T.sleep },
      { deviceId: 'STK-SECLIM-FREE', deviceType: T.sleep },
    ]);
    await addDevice(app, w.aHome.token, 'STK-SECLIM-A', T.sleep);
    await addDevice(app, w.bGroup.token, 'STK-SECLIM-B', T.sleep);
    const limited = await makeAccount(app, w.admin, 'stockSecretLimited', 'SENIOR_ROLE', {
      permissionType: 1,
      providerIds: [w.aGroup.id, w.aHome.id],
    });
    const token = await app.login(limited.userName, limited.password);
    for (const deviceId of ['STK-SECLIM-A', 'STK-SECLIM-FREE']) {
      const res = await app.call(deviceStockSetSecret, { deviceId }, { token });
      expect(res.status, `${deviceId}: ${res.msg}`).toBe(200);
    }
    const foreign = await app.call(deviceStockSetSecret, { deviceId: 'STK-SECLIM-B', secret: SECRET_A }, { token });
    expect(foreign.msgKey).toBe('device.notRegistered');
    expect((await hashOf('STK-SECLIM-B'))?.hash).toBeNull();
  });

  it('answers concurrent secret changes of one entry each with its own secret, the last one stored', async () => {
    await loadStock(app, w.admin, [{ deviceId: 'STK-SEC-RACE', deviceType: T.door }]);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => app.call(deviceStockSetSecret, { deviceId: 'STK-SEC-RACE' }, { token: w.admin })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const secrets = results.map((r) => r.data?.secret ?? '');
    expect(new Set(secrets).size).toBe(4);
    const hash = (await hashOf('STK-SEC-RACE'))?.hash ?? '';
    const verified = await Promise.all(secrets.map((secret) => verifyDeviceSecret(secret, hash)));
    expect(verified.filter(Boolean)).toHaveLength(1);
    const audits = await auditsOf('deviceStock.secret', ['STK-SEC-RACE']);
    expect(audits.map((a) => a.detail?.rotated)).toEqual([false, true, true, true]);
  });
});
