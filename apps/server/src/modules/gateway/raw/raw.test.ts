import { deviceCalls, originDataCalls, type CallRequest } from '@vigil/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.ts';
import { auditLog, deviceRawMinutes, type RawMinuteSamples } from '../../../db/schema.ts';
import { makeAccount } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../../devices/device-test-support.ts';

const { originDataList, originDataDownload, originDataDelete, originDataDeleteAll } = originDataCalls;

const NOW = new Date('2026-03-10T12:00:00.000Z');

/** A minute's samples in columns, as the ingest stores them. */
const samples = (
  rows: [t: number, hr: number, rr: number, inBed: 0 | 1, asleep: 0 | 1, move: number, rri: number[]][],
) =>
  ({
    t: rows.map((r) => r[0]),
    hr: rows.map((r) => r[1]),
    rr: rows.map((r) => r[2]),
    inBed: rows.map((r) => r[3]),
    asleep: rows.map((r) => r[4]),
    move: rows.map((r) => r[5]),
    rri: rows.map((r) => r[6]),
  }) satisfies RawMinuteSamples;

const one = samples([[0, 60, 14, 1, 0, 2, []]]);

describeEachDb('original (raw) data (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  /** Senior administrators: unlimited, and limited to provider B. */
  let senior: string;
  let seniorB: string;

  const insert = (deviceId: string, minute: string, providerId: number | null, s: RawMinuteSamples = one) =>
    app.database.db.insert(deviceRawMinutes).values({ deviceId, minute: new Date(minute), providerId, samples: s });
  const rowsOf = async (deviceId: string) =>
    app.database.db.select().from(deviceRawMinutes).where(eq(deviceRawMinutes.deviceId, deviceId));
  const list = async (token: string, input: CallRequest<typeof originDataList> = {}) => {
    const res = await app.call(originDataList, { pageSize: 100, ...input }, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data ?? { rows: [], total: 0, pageNum: 1, pageSize: 100 };
  };
  const keys = (rows: { deviceId: string; day: string }[]) => rows.map((r) => `${r.deviceId} ${r.day}`);

  beforeAll(async () => {
    app = await createTestApp(target, { clock: new ManualClock(NOW) });
    // The retention runs once at start; wait for it so it does not race the rows written below.
    await app.services.gateway.raw.retention.idle();
    w = await deviceWorld(app, 'Raw');
    senior = await app.login((await makeAccount(app, w.admin, 'rawSenior', 'SENIOR_ROLE')).userName, 'Care#Home2026');
    const limited = await makeAccount(app, w.admin, 'rawSeniorB', 'SENIOR_ROLE', {
      permissionType: 1,
      providerIds: [w.bGroup.id],
    });
    seniorB = await app.login(limited.userName, limited.password);
    await loadStock(app, w.admin, [
      { deviceId: 'RAW-A-1', deviceType: T.sleep },
      { deviceId: 'RAW-A-2', deviceType: T.sleepW },
      { deviceId: 'RAW-B-1', deviceType: T.sleep },
      { deviceId: 'RAW-GONE', deviceType: T.sleepW },
    ]);
    await addDevice(app, w.aHome.token, 'RAW-A-1', T.sleep, { name: 'Bed pad 1' });
    await addDevice(app, w.aGroup.token, 'RAW-A-2', T.sleepW);
    await addDevice(app, w.bGroup.token, 'RAW-B-1', T.sleep, { name: 'B pad' });

    // RAW-A-1: two minutes on 9 March (four samples), one at the last minute of 8 March (UTC).
    await insert(
      'RAW-A-1',
      '2026-03-09T08:00:00Z',
      w.aHome.id,
      samples([
        [1500, 62, 15, 1, 0, 3, [960, 980]],
        [500, 61, 14, 1, 0, 0, [1001]],
      ]),
    );
    await insert(
      'RAW-A-1',
      '2026-03-09T08:01:00Z',
      w.aHome.id,
      samples([
        [0, 0, 0, 0, 0, 12, []],
        [59_999, 58, 13, 1, 1, 1, [1020, 1040, 1060]],
      ]),
    );
    await insert('RAW-A-1', '2026-03-08T23:59:00Z', w.aHome.id);
    // RAW-B-1 (provider B): three minutes on 9 March, one on 7 March.
    for (const m of ['10:00', '10:01', '10:05']) await insert('RAW-B-1', `2026-03-09T${m}:00Z`, w.bGroup.id);
    await insert('RAW-B-1', '2026-03-07T00:00:00Z', w.bGroup.id);
    // RAW-A-2: one minute on 10 March.
    await insert('RAW-A-2', '2026-03-10T00:00:00Z', w.aGroup.id);
  });
  afterAll(() => app?.close());

  it('lists per device and UTC day, newest day first, with counts, times and the device', async () => {
    const { rows, total } = await list(w.admin, { deviceId: 'raw-' });
    expect(total).toBe(5);
    expect(keys(rows)).toEqual([
      'RAW-A-2 2026-03-10',
      'RAW-A-1 2026-03-09',
      'RAW-B-1 2026-03-09',
      'RAW-A-1 2026-03-08',
      'RAW-B-1 2026-03-07',
    ]);
    expect(rows[1]).toEqual({
      deviceId: 'RAW-A-1',
      deviceType: T.sleep,
      deviceName: 'Bed pad 1',
      providerId: w.aHome.id,
      providerName: 'Raw Home A',
      day: '2026-03-09',
      minutes: 2,
      samples: 4,
      firstTime: '2026-03-09T08:00:00.000Z',
      lastTime: '2026-03-09T08:01:00.000Z',
      deviceMinutes: 3,
      deviceDays: 2,
    });
    expect(rows[2]).toMatchObject({
      minutes: 3,
      samples: 3,
      deviceMinutes: 4,
      deviceDays: 2,
      providerName: 'Raw Group B',
    });
    expect(rows[0]).toMatchObject({ deviceType: T.sleepW, deviceName: null, providerName: 'Raw Group A' });
  });

  it('filters by device ID, day and provider, and pages', async () => {
    expect(keys((await list(senior, { deviceId: 'a-1' })).rows)).toEqual(['RAW-A-1 2026-03-09', 'RAW-A-1 2026-03-08']);
    expect(keys((await list(senior, { deviceId: 'RAW', day: '2026-03-09' })).rows)).toEqual([
      'RAW-A-1 2026-03-09',
      'RAW-B-1 2026-03-09',
    ]);
    expect(keys((await list(senior, { deviceId: 'RAW', providerId: w.bGroup.id })).rows)).toEqual([
      'RAW-B-1 2026-03-09',
      'RAW-B-1 2026-03-07',
    ]);
    const second = await list(senior, { deviceId: 'RAW', pageNum: 2, pageSize: 2 });
    expect([second.total, second.pageNum, second.pageSize, ...keys(second.rows)]).toEqual([
      5,
      2,
      2,
      'RAW-B-1 2026-03-09',
      'RAW-A-1 2026-03-08',
    ]);
    const past = await list(senior, { deviceId: 'RAW', pageNum: 9, pageSize: 2 });
    expect([past.total, past.rows.length]).toEqual([5, 0]);
  });

  it('shows an administrator limited by data permission only their providers’ rows', async () => {
    const { rows, total } = await list(seniorB, { deviceId: 'RAW' });
    expect([total, ...keys(rows)]).toEqual([2, 'RAW-B-1 2026-03-09', 'RAW-B-1 2026-03-07']);
    expect(JSON.stringify(await list(seniorB))).not.toContain('Raw Home A');
    const foreign = await app.call(originDataList, { providerId: w.aHome.id }, { token: seniorB });
    expect([foreign.status, foreign.msgKey]).toEqual([300, 'not_found']);
    for (const call of [originDataDownload, originDataDelete] as const) {
      const res = await app.call(call, { deviceId: 'RAW-A-1', day: '2026-03-09' }, { token: seniorB });
      expect([res.msgKey, res.msg]).toEqual(['device.notFound', 'The device does not exist.']);
    }
    const all = await app.call(originDataDeleteAll, { deviceId: 'RAW-A-1' }, { token: seniorB });
    expect(all.msgKey).toBe('device.notFound');
    expect(await rowsOf('RAW-A-1')).toHaveLength(3);
  });

  it('is for platform device administrators only: providers and other roles are refused', async () => {
    const business = await makeAccount(app, w.admin, 'rawBusiness', 'BUSINESS_ROLE');
    const businessToken = await app.login(business.userName, business.password);
    for (const token of [w.aGroup.token, w.aHome.token, w.bGroup.token, businessToken]) {
      expect((await app.call(originDataList, {}, { token })).msgKey).toBe('no_permission');
      const day = { deviceId: 'RAW-A-1', day: '2026-03-09' };
      expect((await app.call(originDataDownload, day, { token })).msgKey).toBe('no_permission');
      expect((await app.call(originDataDelete, day, { token })).msgKey).toBe('no_permission');
      expect((await app.call(originDataDeleteAll, { deviceId: 'RAW-A-1' }, { token })).msgKey).toBe('no_permission');
    }
    expect(await rowsOf('RAW-A-1')).toHaveLength(3);
  });

  it('downloads one device-day as CSV, one line per sample in time order', async () => {
    const file = await app.download(originDataDownload, { deviceId: 'raw-a-1', day: '2026-03-09' }, { token: senior });
    expect(file.filename).toBe('RAW-A-1-2026-03-09.csv');
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    expect(new TextDecoder().decode(file.bytes)).toBe(
      [
        'time,hr,rr,inBed,asleep,move,rri',
        '2026-03-09T08:00:00.500Z,61,14,1,0,0,1001',
        '2026-03-09T08:00:01.500Z,62,15,1,0,3,960 980',
        '2026-03-09T08:01:00.000Z,0,0,0,0,12,',
        '2026-03-09T08:01:59.999Z,58,13,1,1,1,1020 1040 1060',
        '',
      ].join('\r\n'),
    );
    // The UTC day's last minute belongs to it; a day without samples is the header alone.
    const edge = await app.download(originDataDownload, { deviceId: 'RAW-A-1', day: '2026-03-08' }, { token: w.admin });
    expect(new TextDecoder().decode(edge.bytes)).toBe(
      'time,hr,rr,inBed,asleep,move,rri\r\n2026-03-08T23:59:00.000Z,60,14,1,0,2,\r\n',
    );
    const empty = await app.download(originDataDownload, { deviceId: 'RAW-A-1', day: '2026-02-01' }, { token: senior });
    expect(new TextDecoder().decode(empty.bytes)).toBe('time,hr,rr,inBed,asleep,move,rri\r\n');
  });

  it('keeps the rows of a device deleted since: listed, downloaded and deleted by ID', async () => {
    await loadStock(app, w.admin, [{ deviceId: 'RAW-GONE-2', deviceType: T.sleepW }]);
    await addDevice(app, w.aHome.token, 'RAW-GONE-2', T.sleepW, { name: 'Old pad' });
    await insert('RAW-GONE-2', '2026-03-09T09:00:00Z', w.aHome.id);
    expect(
      (await app.call(deviceCalls.deleteDevice, { deviceId: 'RAW-GONE-2' }, { token: w.aHome.token })).status,
    ).toBe(200);
    const [row] = (await list(senior, { deviceId: 'RAW-GONE-2' })).rows;
    expect(row).toMatchObject({ deviceType: T.sleepW, deviceName: null, providerName: 'Raw Home A', minutes: 1 });
    const file = await app.download(
      originDataDownload,
      { deviceId: 'RAW-GONE-2', day: '2026-03-09' },
      { token: senior },
    );
    expect(new TextDecoder().decode(file.bytes).split('\r\n')).toHaveLength(3);
    const res = await app.call(originDataDeleteAll, { deviceId: 'RAW-GONE-2' }, { token: senior });
    expect(res.data).toEqual({ deleted: 1 });
  });

  it('deletes a device-day and all of a device, answering the count and auditing each', async () => {
    await insert('RAW-A-2', '2026-03-09T07:00:00Z', w.aGroup.id);
    await insert('RAW-A-2', '2026-03-09T07:01:00Z', w.aGroup.id);
    const day = await app.call(originDataDelete, { deviceId: 'RAW-A-2', day: '2026-03-09' }, { token: senior });
    expect(day.data).toEqual({ deleted: 2 });
    expect((await rowsOf('RAW-A-2')).map((r) => r.minute.toISOString())).toEqual(['2026-03-10T00:00:00.000Z']);
    const audits = () =>
      app.database.db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.targetId, 'RAW-A-2'),
            inArray(auditLog.action, ['originData.delete', 'originData.deleteAll']),
          ),
        )
        .orderBy(auditLog.id);
    expect((await audits()).map((a) => [a.action, a.providerId, a.actorName, a.targetType, a.detail])).toEqual([
      ['originData.delete', w.aGroup.id, 'rawSenior', 'device', { day: '2026-03-09', deleted: 2 }],
    ]);
    // Nothing that day any more: nothing deleted, nothing audited.
    const again = await app.call(originDataDelete, { deviceId: 'RAW-A-2', day: '2026-03-09' }, { token: senior });
    expect(again.data).toEqual({ deleted: 0 });

    await insert('RAW-A-2', '2026-03-01T07:00:00Z', w.aGroup.id);
    const all = await app.call(originDataDeleteAll, { deviceId: 'raw-a-2' }, { token: w.admin });
    expect(all.data).toEqual({ deleted: 2 });
    expect(await rowsOf('RAW-A-2')).toEqual([]);
    expect((await audits()).map((a) => [a.action, a.detail])).toEqual([
      ['originData.delete', { day: '2026-03-09', deleted: 2 }],
      ['originData.deleteAll', { deleted: 2 }],
    ]);
    // The device still exists (its raw upload setting is its own): an empty deleteAll answers 0.
    expect((await app.call(originDataDeleteAll, { deviceId: 'RAW-A-2' }, { token: senior })).data).toEqual({
      deleted: 0,
    });
    // A limited administrator deletes their provider's rows.
    const b = await app.call(originDataDeleteAll, { deviceId: 'RAW-B-1' }, { token: seniorB });
    expect(b.data).toEqual({ deleted: 4 });
    expect(await rowsOf('RAW-B-1')).toEqual([]);
  });

  it('answers bad input and unknown devices with localised messages naming the field', async () => {
    const badDay = await app.call(originDataDownload, { deviceId: 'RAW-A-1', day: '2026-13-01' }, { token: senior });
    expect([badDay.status, badDay.msgKey, badDay.field, badDay.msg]).toEqual([
      400,
      'originData.dayFormat',
      'day',
      'Day must be a day written YYYY-MM-DD, for example 2026-03-01.',
    ]);
    const zh = await app.call(originDataList, { day: '9.3.2026' }, { token: senior, lang: 'zh-CN' });
    expect([zh.status, zh.msgKey, zh.msg]).toEqual([
      400,
      'originData.dayFormat',
      '日期必须是 YYYY-MM-DD 格式的日期，例如 2026-03-01。',
    ]);
    const de = await app.call(
      originDataDelete,
      { deviceId: 'RAW-A-1', day: '2026-02-30' },
      { token: senior, lang: 'de' },
    );
    expect([de.msgKey, de.msg]).toEqual([
      'originData.dayFormat',
      'Das Feld „Tag“ muss ein Tag im Format JJJJ-MM-TT sein, zum Beispiel 2026-03-01.',
    ]);
    const missing = await app.call(originDataDelete, { deviceId: 'RAW-A-1' } as never, { token: senior });
    expect([missing.msgKey, missing.field]).toEqual(['validation.required', 'day']);
    const badId = await app.call(originDataDeleteAll, { deviceId: 'RAW A 1' }, { token: senior, lang: 'zh-CN' });
    expect([badId.status, badId.msgKey, badId.msg]).toEqual([
      400,
      'device.idFormat',
      '设备编号格式错误：只能包含数字、字母和“-”。',
    ]);
    const unknown = await app.call(
      originDataDownload,
      { deviceId: 'RAW-NONE', day: '2026-03-09' },
      { token: senior, lang: 'zh-CN' },
    );
    expect([unknown.status, unknown.msgKey, unknown.field, unknown.msg]).toEqual([
      300,
      'device.notFound',
      'deviceId',
      '设备不存在。',
    ]);
    // Registered but never added, and without raw rows: unknown here too.
    const stockOnly = await app.call(originDataDeleteAll, { deviceId: 'RAW-GONE' }, { token: senior });
    expect(stockOnly.msgKey).toBe('device.notFound');
    // The device exists but has no rows that day: an empty delete, not an error.
    expect(
      (await app.call(originDataDelete, { deviceId: 'RAW-A-1', day: '2026-01-01' }, { token: senior })).data,
    ).toEqual({
      deleted: 0,
    });
  });
});
