import { bunkExcelModel, bunkExportData, bunkImportData, bunkList } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import * as XLSX from '@e965/xlsx';
import { notesOf, sheetRows, uploadForm, workbook, zipWith } from '../spreadsheet/sheet-test-support.ts';
import { makeDevice, makePlace } from './facility.fixtures.ts';

const HEADER_EN = ['Area / building', 'Floor / unit', 'Room', 'Bed', 'Mattress material', 'Device ID'];
const HEADER_ZH = ['区域/楼栋', '楼层/单元', '房间', '床位', '床垫材质', '设备编号'];
type Problems = { problems: { row: number; column: string; reason: string }[] };

describeEachDb('bed spreadsheets (%s)', (target) => {
  let app: TestApp;
  let home: { id: number; token: string };
  let other: { id: number; token: string };

  const importBeds = (rows: (string | number)[][], token = home.token, lang = 'en-US') =>
    app.call(bunkImportData, uploadForm(workbook(rows)), { token, lang });
  const bedsOf = async (token: string) =>
    (await app.call(bunkList, { pageSize: 1000 }, { token })).data?.rows.map(
      (b) => `${b.areaName}/${b.floorName}/${b.roomName}/${b.name}:${b.mattress}:${b.deviceId ?? ''}`,
    );

  beforeAll(async () => {
    app = await createTestApp(target);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const h = await makeProvider(app, admin, 'Sheet Home');
    const o = await makeProvider(app, admin, 'Sheet Other');
    home = { id: h.id, token: await app.login(h.userName, h.password) };
    other = { id: o.id, token: await app.login(o.userName, o.password) };
  });
  afterAll(() => app?.close());

  it('serves a template in the language asked for, with notes', async () => {
    const en = await app.download(bunkExcelModel, {}, { token: home.token, lang: 'en-US' });
    expect(en.contentType).toContain('spreadsheetml');
    expect(sheetRows(en)).toEqual([HEADER_EN]);
    const zh = await app.download(bunkExcelModel, { language: 'zh-CN' }, { token: home.token, lang: 'en-US' });
    expect(sheetRows(zh)).toEqual([HEADER_ZH]);
    expect(notesOf(zh).join('\n')).toContain('床垫材质：可填 海绵, 弹簧, 乳胶。');
  });

  it('creates areas, floors, rooms and beds from a file and links the named devices', async () => {
    const device = await makeDevice(app, home.id, 'BED-SHEET-1');
    const res = await importBeds([
      HEADER_ZH,
      ['A栋', '1F', '101', '1', '海绵', device.code],
      ['A栋', '1F', '101', '2', 'latex', ''],
      ['a栋', '2F', '201', '1', '', ''],
    ]);
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toEqual({ imported: 3 });
    expect(await bedsOf(home.token)).toEqual(
      expect.arrayContaining([
        'A栋/1F/101/1:sponge:BED-SHEET-1',
        'A栋/1F/101/2:latex:',
        // Names match case-insensitively: the second "a栋" is the same area.
        'A栋/2F/201/1:sponge:',
      ]),
    );
  });

  it('refuses a file with any bad row, listing every problem, and writes nothing', async () => {
    await makePlace(app, home.token, { area: 'Old Wing', floor: 'G', room: 'R1', beds: ['1'] });
    await makeDevice(app, other.id, 'BED-SHEET-FOREIGN');
    const before = await bedsOf(home.token);
    const res = await importBeds([
      HEADER_EN,
      ['New Wing', '1F', '101', '1', 'sponge', ''],
      ['New Wing', '1F', '101', '1', 'spring', ''],
      ['Old Wing', 'G', 'R1', '1', '', ''],
      ['New Wing', '1F', '', '3', 'feathers', ''],
    ]);
    expect([res.status, res.msgKey]).toEqual([400, 'import.rowErrors']);
    const { problems } = res.data as unknown as Problems;
    expect(problems).toEqual([
      { row: 3, column: 'Bed', reason: expect.any(String) },
      { row: 4, column: 'Bed', reason: expect.any(String) },
      { row: 5, column: 'Room', reason: 'is required (incomplete row)' },
      { row: 5, column: 'Mattress material', reason: 'must be one of: sponge, spring, latex' },
    ]);
    expect(await bedsOf(home.token)).toEqual(before);

    // A device of another provider, or none at all, is reported on its row; the beds are rolled back.
    const devices = await importBeds([
      HEADER_EN,
      ['Device Wing', '1F', '101', '1', '', 'BED-SHEET-FOREIGN'],
      ['Device Wing', '1F', '101', '2', '', 'NO-SUCH-DEVICE'],
    ]);
    expect(devices.msgKey).toBe('import.rowErrors');
    expect((devices.data as unknown as Problems).problems.map((p) => [p.row, p.column])).toEqual([
      [2, 'Device ID'],
      [3, 'Device ID'],
    ]);
    expect(await bedsOf(home.token)).toEqual(before);
  });

  it('refuses files that are not spreadsheets and a missing file, with a clear message', async () => {
    const csv = await app.call(bunkImportData, uploadForm(new TextEncoder().encode('a,b\n1,2'), 'beds.csv'), {
      token: home.token,
    });
    expect([csv.status, csv.msgKey, csv.msg]).toEqual([
      400,
      'import.format',
      'Only .xls and .xlsx spreadsheets can be imported.',
    ]);
    const none = await app.call(bunkImportData, new FormData(), { token: home.token });
    expect([none.status, none.msgKey]).toEqual([400, 'import.fileMissing']);
    // A zip bomb is refused before it is inflated; a file over 10 MB is not even read to the end.
    const bomb = zipWith('xl/worksheets/sheet1.xml', new Uint8Array(50 * 1024 * 1024));
    const bombed = await app.call(bunkImportData, uploadForm(bomb, 'beds.xlsx'), { token: home.token });
    expect([bombed.status, bombed.msgKey]).toEqual([400, 'import.unreadable']);
    const huge = await app.call(bunkImportData, uploadForm(new Uint8Array(10 * 1024 * 1024 + 1), 'beds.xlsx'), {
      token: home.token,
    });
    expect([huge.status, huge.msg]).toEqual([400, 'The file is too large: at most 10 MB.']);
  });

  it('neutralises text a spreadsheet program would run, and reads it back as typed', async () => {
    // Place names cannot hold commas, so the formula is one without.
    const hostile = '=SUM(A1:A9)';
    const res = await importBeds([HEADER_EN, ['Formula Wing', '1F', '+1+1', hostile, '', '']]);
    expect(res.status, res.msg).toBe(200);
    const file = await app.download(bunkExportData, { keyWord: 'Formula' }, { token: home.token });
    const book = XLSX.read(file.bytes, { type: 'buffer', cellFormula: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''] ?? {};
    expect(sheet.D2).toMatchObject({ t: 's', v: `'${hostile}` });
    expect(sheet.D2?.f).toBeUndefined();
    expect(sheet.C2).toMatchObject({ t: 's', v: "'+1+1" });
    // The export re-imports to the same names (here into another provider).
    const back = await app.call(bunkImportData, uploadForm(file.bytes, 'beds.xlsx'), { token: other.token });
    expect(back.status, back.msg).toBe(200);
    expect(await bedsOf(other.token)).toContain(`Formula Wing/1F/+1+1/${hostile}:sponge:`);
  });

  it('exports the filtered beds in the template columns; the export imports into another provider', async () => {
    const file = await app.download(bunkExportData, { keyWord: 'A栋' }, { token: home.token, lang: 'en-US' });
    const rows = sheetRows(file);
    expect(rows[0]).toEqual([...HEADER_EN, 'Resident', 'Provider']);
    expect(rows.slice(1).map((r) => r.slice(0, 6))).toEqual(
      expect.arrayContaining([
        ['A栋', '1F', '101', '1', 'sponge', 'BED-SHEET-1'],
        ['A栋', '2F', '201', '1', 'sponge', ''],
      ]),
    );
    expect(rows).toHaveLength(4);
    // The other provider has no such device: drop that column's value and the rest imports as is.
    const reimport = rows.map((r, i) => (i === 0 ? r : [...r.slice(0, 5), '']));
    const res = await app.call(bunkImportData, uploadForm(workbook(reimport)), { token: other.token });
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toEqual({ imported: 3 });
  });

  it('keeps tenants apart: an export never holds another provider’s beds', async () => {
    const file = await app.download(bunkExportData, {}, { token: other.token, lang: 'en-US' });
    const rows = sheetRows(file).slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r[7]))).toEqual(new Set(['Sheet Other']));
    expect(rows.some((r) => r[0] === 'Old Wing')).toBe(false);
    // A provider the caller cannot see lists nothing.
    const foreign = await app.download(bunkExportData, { providerId: home.id }, { token: other.token });
    expect(sheetRows(foreign)).toHaveLength(1);
  });
});
