import {
  deviceBatchAdd,
  deviceCalls,
  deviceExcelModel,
  deviceExportData,
  deviceStockExcelModel,
  deviceStockImportSheet,
  gatewayExcelModel,
  heHostBatchAdd,
  heInfraredBatchAdd,
} from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deviceStock } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { notesOf, sheetRows, uploadForm, workbook } from '../spreadsheet/sheet-test-support.ts';
import { verifyDeviceSecret } from '../gateway/index.ts';
import { addDevice, deviceWorld, loadStock, placeBed, T, type DeviceWorld } from './device-test-support.ts';

type Problems = { problems: { row: number; column: string; reason: string }[] };
const DEVICE_HEADER = [
  'Device ID',
  'Device type (model or code)',
  'Device name',
  'Communication mode',
  'Remark',
  'Place (area / floor / room / bed)',
  'Worn by',
];

describeEachDb('device spreadsheets (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;

  const upload = (
    call: typeof deviceBatchAdd | typeof heHostBatchAdd | typeof heInfraredBatchAdd | typeof deviceStockImportSheet,
    rows: (string | number)[][],
    token: string,
  ) => app.call(call, uploadForm(workbook(rows)), { token });
  const deviceIds = async (token: string) =>
    ((await app.call(deviceCalls.getDeviceList, { pageSize: 1000 }, { token })).data?.rows ?? [])
      .map((d) => d.deviceId)
      .sort();
  const problemsOf = (res: { data: unknown }) =>
    (res.data as Problems).problems.map((p) => [p.row, p.column, p.reason] as const);

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Sheet');
  });
  afterAll(() => app?.close());

  it('loads the registry from a spreadsheet (administrators), all or nothing', async () => {
    const template = await app.download(deviceStockExcelModel, {}, { token: w.admin, lang: 'zh-CN' });
    expect(sheetRows(template)[0]).toEqual([
      '设备编号',
      '设备类型（型号或编码）',
      '密文编号',
      'IMEI',
      '4G 模组 IMEI',
      'SIM 卡 ICCID',
      '型号',
      '固件类型',
      '批次',
      '设备密钥',
    ]);
    const header = sheetRows(await app.download(deviceStockExcelModel, {}, { token: w.admin }))[0] ?? [];
    const bad = await upload(
      deviceStockImportSheet,
      [header, ['SH-1', 'BM8701-2'], ['SH-1', '49'], ['SH-2', 'toaster'], ['SH-3', 'M8701W', '', '12345']],
      w.admin,
    );
    expect(bad.msgKey).toBe('import.rowErrors');
    expect(problemsOf(bad)).toEqual([
      [3, 'Device ID', 'repeats row 2 of this file'],
      [4, 'Device type (model or code)', 'must be a device type code or model of the catalogue'],
      [5, 'IMEI', expect.stringContaining('IMEI')],
    ]);
    const rows = [
      header,
      ...['SH-1', 'SH-2', 'SH-3', 'SH-4'].map((id) => [id, 'BM8701-2']),
      ['SH-HOST-1', 'LHD8100'],
      ['SH-HOST-2', '21008'],
      ['SH-IR-1', 'LH-910FK'],
      ['SH-IR-2', 'HW-N05'],
      ['SH-DOOR', 'MC-N01'],
    ];
    const ok = await upload(deviceStockImportSheet, rows, w.admin);
    expect(ok.status, ok.msg).toBe(200);
    expect(ok.data).toEqual({ imported: 9 });
    // Providers do not load the registry.
    expect((await upload(deviceStockImportSheet, rows, w.aHome.token)).msgKey).toBe('no_permission');
  });

  it('loads device secrets from the registry sheet’s optional column, as hashes only', async () => {
    const template = await app.download(deviceStockExcelModel, {}, { token: w.admin });
    const header = sheetRows(template)[0] ?? [];
    expect(header.at(-1)).toBe('Device secret');
    expect(notesOf(template)).toContainEqual(
      expect.stringContaining('Device secret: optional; the password the device'),
    );
    const secret = 'Sheet#Secret-0001-abcdef';
    const at = (column: string) => header.indexOf(column);
    const row = (id: string, value: string) => {
      const cells: string[] = Array.from({ length: header.length }, () => '');
      cells[at('Device ID')] = id;
      cells[at('Device type (model or code)')] = 'MC-N01';
      cells[at('Device secret')] = value;
      return cells;
    };
    const bad = await upload(
      deviceStockImportSheet,
      [header, row('SH-SEC-1', secret), row('SH-SEC-2', 'too short'), row('SH-SEC-3', 'x'.repeat(129))],
      w.admin,
    );
    expect(bad.msgKey).toBe('import.rowErrors');
    expect(problemsOf(bad)).toEqual([
      [3, 'Device secret', expect.stringContaining('16 to 128 characters')],
      [4, 'Device secret', expect.stringContaining('128')],
    ]);
    expect(JSON.stringify(bad)).not.toContain(secret);
    const ok = await upload(deviceStockImportSheet, [header, row('SH-SEC-1', secret), row('SH-SEC-2', '')], w.admin);
    expect(ok.status, ok.msg).toBe(200);
    const stored = async (deviceId: string) =>
      (await app.database.db.select().from(deviceStock).where(eq(deviceStock.deviceId, deviceId)))[0];
    expect(await verifyDeviceSecret(secret, (await stored('SH-SEC-1'))?.secretHash ?? '')).toBe(true);
    expect((await stored('SH-SEC-2'))?.secretHash).toBeNull();
    const listed = await app.call(deviceCalls.deviceStockList, { keyWord: 'SH-SEC' }, { token: w.admin });
    expect(listed.data?.rows.map((r) => [r.deviceId, r.hasSecret])).toEqual([
      ['SH-SEC-2', false],
      ['SH-SEC-1', true],
    ]);
  });

  it('adds registry devices to a provider with the checks of insertDevice on every row', async () => {
    expect(sheetRows(await app.download(deviceExcelModel, {}, { token: w.aHome.token }))).toEqual([DEVICE_HEADER]);
    await addDevice(app, w.bGroup.token, 'SH-4', T.sleep);
    const before = await deviceIds(w.aHome.token);
    const bad = await upload(
      deviceBatchAdd,
      [
        DEVICE_HEADER,
        ['SH-1', 'BM8701-2', 'Bed 1', 'wifi'],
        ['SH-4', 'BM8701-2'],
        ['SH-NONE', 'BM8701-2'],
        ['SH-2', 'M8701W'],
        ['SH 3!', 'BM8701-2'],
        ['SH-3', 'BM8701-2', '', 'pigeon'],
      ],
      w.aHome.token,
    );
    expect(bad.msgKey).toBe('import.rowErrors');
    expect(problemsOf(bad).map(([row, column]) => [row, column])).toEqual([
      [3, 'Device ID'],
      [4, 'Device ID'],
      [5, 'Device type (model or code)'],
      [6, 'Device ID'],
      [7, 'Communication mode'],
    ]);
    expect(await deviceIds(w.aHome.token)).toEqual(before);

    const ok = await upload(
      deviceBatchAdd,
      [DEVICE_HEADER, ['SH-1', 'BM8701-2', 'Bed 1', 'Wi-Fi'], ['sh-2', '49', '', 'WLAN', 'by code']],
      w.aHome.token,
    );
    expect(ok.status, ok.msg).toBe(200);
    expect(await deviceIds(w.aHome.token)).toEqual([...before, 'SH-1', 'SH-2'].sort());
    // The labels the screens show, in any language, read as the mode they name (issue 8, point 13).
    const listed = await app.call(deviceCalls.getDeviceList, { pageNum: 1, pageSize: 50 }, { token: w.aHome.token });
    const modes = Object.fromEntries((listed.data?.rows ?? []).map((d) => [d.deviceId, d.commMode]));
    expect([modes['SH-1'], modes['SH-2']]).toEqual(['wifi', 'wifi']);
  });

  it('adds gateway hosts, then pairs infrared detectors to them', async () => {
    const hostHeader = sheetRows(await app.download(gatewayExcelModel, { kind: 'host' }, { token: w.aHome.token }))[0];
    expect(hostHeader).toEqual(['Gateway host ID', 'Device name', 'Remark']);
    const irHeader = sheetRows(
      await app.download(gatewayExcelModel, { kind: 'infrared' }, { token: w.aHome.token }),
    )[0];
    expect(irHeader).toEqual(['Gateway host ID', 'Device ID', 'Device type (model or code)', 'Device name']);

    const notHost = await upload(heHostBatchAdd, [hostHeader ?? [], ['SH-DOOR']], w.aHome.token);
    expect(problemsOf(notHost)).toEqual([[2, 'Gateway host ID', expect.any(String)]]);
    const hosts = await upload(heHostBatchAdd, [hostHeader ?? [], ['SH-HOST-1', 'Hall'], ['SH-HOST-2']], w.aHome.token);
    expect(hosts.status, hosts.msg).toBe(200);

    const badIr = await upload(
      heInfraredBatchAdd,
      [
        irHeader ?? [],
        ['SH-HOST-1', 'SH-IR-1', 'LH-910FK'],
        ['SH-HOST-1', 'SH-DOOR', 'MC-N01'],
        ['SH-NOPE', 'SH-IR-2', 'HW-N05'],
      ],
      w.aHome.token,
    );
    expect(problemsOf(badIr).map(([row, column]) => [row, column])).toEqual([
      [3, 'Device type (model or code)'],
      [4, 'Gateway host ID'],
    ]);
    const ir = await upload(
      heInfraredBatchAdd,
      [irHeader ?? [], ['SH-HOST-1', 'SH-IR-1', 'LH-910FK', 'Corridor'], ['SH-HOST-2', 'SH-IR-2', '20999']],
      w.aHome.token,
    );
    expect(ir.status, ir.msg).toBe(200);
    const listed = await app.call(deviceCalls.heGetDeviceList, { pageSize: 10 }, { token: w.aHome.token });
    const subs = Object.fromEntries(
      (listed.data?.rows ?? []).map((h) => [h.deviceId, h.subDevices.map((s) => `${s.deviceId}:${s.name ?? ''}`)]),
    );
    expect(subs).toEqual({ 'SH-HOST-1': ['SH-IR-1:Corridor'], 'SH-HOST-2': ['SH-IR-2:'] });
  });

  it('exports devices in the template columns plus state, and the export adds them elsewhere', async () => {
    const file = await app.download(deviceExportData, { kind: 'sleep' }, { token: w.aHome.token, lang: 'en-US' });
    const rows = sheetRows(file);
    expect(rows[0]).toEqual([...DEVICE_HEADER, 'Online status', 'Bed', 'Resident', 'Provider']);
    expect(rows.slice(1).map((r) => r.slice(0, 5))).toEqual([
      ['SH-2', 'BM8701-2', '', 'wifi', 'by code'],
      ['SH-1', 'BM8701-2', 'Bed 1', 'wifi', ''],
    ]);
    // Removed from this provider, the exported rows add the same devices back.
    for (const id of ['SH-1', 'SH-2']) {
      expect((await app.call(deviceCalls.deleteDevice, { deviceId: id }, { token: w.aHome.token })).status).toBe(200);
    }
    const again = await app.call(deviceBatchAdd, uploadForm(workbook(rows)), { token: w.aHome.token });
    expect(again.status, again.msg).toBe(200);
    expect(again.data).toEqual({ imported: 2 });
    expect(notesOf(await app.download(deviceExcelModel, {}, { token: w.aHome.token }))).toContain(
      'Communication mode: one of Wi-Fi, NB-IoT, 4G, Zigbee, LoRa, Bluetooth LE, Ethernet.',
    );
  });

  it('imports and exports places: each row’s place by names, refused per row, and the export reads back', async () => {
    await loadStock(app, w.admin, [
      { deviceId: 'SHP-DOOR', deviceType: T.door },
      { deviceId: 'SHP-SOS', deviceType: T.sos },
      { deviceId: 'SHP-SMK', deviceType: T.smoke },
      { deviceId: 'SHP-BDG', deviceType: T.badge },
      { deviceId: 'SHP-X', deviceType: T.sos },
    ]);
    await placeBed(app, w.aHome.id, { area: 'Shp Main', room: '102', bed: 'A', resident: 'Edith Warren' });
    await placeBed(app, w.bGroup.id, { area: 'Shp Foreign', room: '900', bed: 'Z', resident: 'Stranger' });
    const rows = [
      ['SHP-DOOR', 'MC-N01', 'Bathroom door', '', '', 'Shp Main / Shp Main F1 / 102'],
      ['SHP-SOS', 'SOS-N03', '', '', '', 'shp main / shp main f1 / 102 / a'],
      ['SHP-SMK', 'YG-09N', 'Corridor', '', '', 'Shp Main / Shp Main F1'],
      ['SHP-BDG', 'A26', '', '', '', '', 'Edith Warren'],
    ];
    // Another provider's room, a room that does not exist, a stranger's badge: per-row problems, nothing added.
    const bad = await upload(
      deviceBatchAdd,
      [
        DEVICE_HEADER,
        ...rows,
        ['SHP-X', 'SOS-N03', '', '', '', 'Shp Foreign / Shp Foreign F1 / 900'],
        ['SHP-X', 'SOS-N03', '', '', '', 'Shp Main / Shp Main F1 / 999'],
      ],
      w.aHome.token,
    );
    expect(bad.msgKey).toBe('import.rowErrors');
    expect(problemsOf(bad).map(([row, column]) => [row, column])).toEqual([
      [6, 'Place (area / floor / room / bed)'],
      [7, 'Place (area / floor / room / bed)'],
    ]);
    const ok = await upload(deviceBatchAdd, [DEVICE_HEADER, ...rows], w.aHome.token);
    expect(ok.status, ok.msg).toBe(200);
    const file = await app.download(deviceExportData, { kind: 'security' }, { token: w.aHome.token, lang: 'en-US' });
    const exported = sheetRows(file).filter((r) => String(r[0]).startsWith('SHP-'));
    const byId = Object.fromEntries(exported.map((r) => [r[0], [r[5] ?? '', r[6] ?? '']]));
    expect(byId).toMatchObject({
      'SHP-DOOR': ['Shp Main / Shp Main F1 / 102', ''],
      'SHP-SOS': ['Shp Main / Shp Main F1 / 102 / A', ''],
      'SHP-SMK': ['Shp Main / Shp Main F1', ''],
    });
    const wearable = await app.download(deviceExportData, { kind: 'wearable' }, { token: w.aHome.token });
    const badge = sheetRows(wearable).find((r) => r[0] === 'SHP-BDG');
    expect(badge?.slice(5, 7)).toEqual(['', 'Edith Warren']);
    // Round trip: removed, then added back from the exports, each device has its place again.
    const back = [...exported, ...(badge ? [badge] : [])];
    for (const [id] of back)
      await app.call(deviceCalls.deleteDevice, { deviceId: String(id) }, { token: w.aHome.token });
    const again = await app.call(deviceBatchAdd, uploadForm(workbook([DEVICE_HEADER, ...back])), {
      token: w.aHome.token,
    });
    expect(again.status, again.msg).toBe(200);
    const listed = await app.call(
      deviceCalls.getDeviceList,
      { pageSize: 100, keyWord: 'SHP-' },
      { token: w.aHome.token },
    );
    const places = Object.fromEntries(
      (listed.data?.rows ?? []).map((d) => [d.deviceId, [d.placeKind, d.roomName, d.bunkName, d.userName]]),
    );
    expect(places).toEqual({
      'SHP-DOOR': ['room', '102', null, null],
      'SHP-SOS': ['bed', '102', 'A', 'Edith Warren'],
      'SHP-SMK': ['area', null, null, null],
      'SHP-BDG': ['resident', '102', 'A', 'Edith Warren'],
    });
  });
});
