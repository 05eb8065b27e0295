import { nursingBatchAdd, nursingExcelModel, nursingExportData, queryNursingList } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { notesOf, sheetRows, uploadForm, workbook } from '../spreadsheet/sheet-test-support.ts';
import { appLogin, careWorld, makeCaregiver } from './care-fixtures.ts';

const HEADER = ['Name', 'Phone', 'Job', 'Level', 'App login account', 'Remark'];
type Problems = { problems: { row: number; column: string; reason: string }[] };

describeEachDb('caregiver spreadsheets (%s)', (target) => {
  let app: TestApp;
  let world: Awaited<ReturnType<typeof careWorld>>;

  const upload = (rows: (string | number)[][], token = world.homeToken) =>
    app.call(nursingBatchAdd, uploadForm(workbook([HEADER, ...rows])), { token });
  const names = async (token: string) =>
    ((await app.call(queryNursingList, { pageSize: 1000 }, { token })).data?.rows ?? []).map((c) => c.name).sort();

  beforeAll(async () => {
    app = await createTestApp(target);
    world = await careWorld(app, 'CareSheet');
  });
  afterAll(() => app?.close());

  it('serves a template that says each caregiver gets an app account', async () => {
    const file = await app.download(nursingExcelModel, {}, { token: world.homeToken });
    expect(sheetRows(file)).toEqual([HEADER]);
    expect(notesOf(file)).toContain(
      'Each caregiver gets an app account with a generated password, shown once after the import.',
    );
  });

  it('creates caregivers with app accounts and answers their passwords once; they can sign in to the app', async () => {
    const res = await upload([
      ['Mei Chen', '138 0013 8001', 'Night nurse', 'lead', '', ''],
      ['Tom Baker', '+44 7700 900123', '', '', 'tombaker01', 'Weekends'],
    ]);
    expect(res.status, res.msg).toBe(200);
    expect(res.data?.imported).toBe(2);
    const [mei, tom] = res.data?.accounts ?? [];
    expect(mei).toMatchObject({ name: 'Mei Chen', userName: '13800138001' });
    expect(tom).toMatchObject({ name: 'Tom Baker', userName: 'tombaker01' });
    const signIn = await appLogin(app, tom?.userName ?? '', tom?.initialPassword ?? '');
    expect(signIn.status, signIn.msg).toBe(200);
  });

  it('reports every bad row, including repeats within the file and phones already used, and adds nothing', async () => {
    await makeCaregiver(app, world.homeToken, 'Existing', { phone: '13900000999' });
    const before = await names(world.homeToken);
    const res = await upload([
      ['A', '12345', '', '', '', ''],
      ['B', '13900000999', '', '', '', ''],
      ['C', '13900000777', '', 'boss', '', ''],
      ['D', '13900000555', '', '', '', ''],
      ['E', '13900000555', '', '', '', ''],
      ['', '13900000444', '', '', '', ''],
    ]);
    expect(res.msgKey).toBe('import.rowErrors');
    expect((res.data as unknown as Problems).problems.map((p) => [p.row, p.column, p.reason])).toEqual([
      [
        2,
        'Phone',
        'Phone must be a valid mobile number: 11 digits for mainland China, or + and the country code elsewhere.',
      ],
      [3, 'Phone', expect.any(String)],
      [4, 'Level', 'must be one of: normal, lead'],
      [6, 'Phone', 'repeats row 5 of this file'],
      [7, 'Name', 'is required (incomplete row)'],
    ]);
    expect(await names(world.homeToken)).toEqual(before);
  });

  it('exports caregivers in the template columns; the export imports into another provider', async () => {
    const file = await app.download(nursingExportData, { keyWord: 'Mei' }, { token: world.homeToken });
    const rows = sheetRows(file);
    expect(rows[0]).toEqual([...HEADER, 'Enabled', 'Linked residents', 'Provider']);
    expect(rows[1]?.slice(0, 6)).toEqual(['Mei Chen', '13800138001', 'Night nurse', 'lead', '13800138001', '']);
    // Login accounts are unique across the platform: the other provider's copy takes the phone… which is taken.
    const copy = rows.map((r, i) => (i === 0 ? r : [...r.slice(0, 4), 'meichen02', ...r.slice(5)]));
    const res = await app.call(nursingBatchAdd, uploadForm(workbook(copy)), { token: world.otherToken });
    expect(res.status, res.msg).toBe(200);
    expect(await names(world.otherToken)).toEqual(['Mei Chen']);
  });
});
