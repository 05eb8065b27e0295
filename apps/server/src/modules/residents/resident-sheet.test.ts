import {
  bunkExportData,
  bunkImportData,
  getResident,
  residentBatchAdd,
  residentExcelModel,
  residentExportData,
  residentList,
} from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makePlace } from '../facility/facility.fixtures.ts';
import { notesOf, sheetRows, uploadForm, workbook } from '../spreadsheet/sheet-test-support.ts';
import { seedCommunity } from './resident-fixtures.ts';

const HEADER = [
  'Name',
  'Gender',
  'Date of birth',
  'Height (cm)',
  'Weight (kg)',
  'Medical history',
  'Other medical history',
  'Emergency contact',
  'Emergency contact phone',
  'Emergency contact relation',
  'Second emergency contact',
  'Second emergency contact phone',
  'Second emergency contact relation',
  'Priority',
  'Community',
  'Remark',
  'Area / building',
  'Floor / unit',
  'Room',
  'Bed',
];
type Problem = { row: number; column: string; reason: string };
type Refusal = { problems: Problem[]; confirmField?: string };

/** A row of the template: name, gender, birth date, then the named columns (by header). */
const row = (name: string, fields: Partial<Record<(typeof HEADER)[number], string | number>> = {}) =>
  HEADER.map((h) => {
    if (h === 'Name') return name;
    if (h === 'Gender') return fields[h] ?? 'female';
    if (h === 'Date of birth') return fields[h] ?? '1940-05-06';
    return fields[h] ?? '';
  });

describeEachDb('resident spreadsheets (%s)', (target) => {
  let app: TestApp;
  let home: { id: number; token: string };
  let other: { id: number; token: string };

  const importResidents = (rows: (string | number)[][], token = home.token, fields: Record<string, string> = {}) =>
    app.call(residentBatchAdd, uploadForm(workbook([HEADER, ...rows]), 'residents.xlsx', fields), { token });
  const names = async (token: string) =>
    ((await app.call(residentList, { pageSize: 1000 }, { token })).data?.rows ?? []).map((r) => r.name).sort();

  beforeAll(async () => {
    app = await createTestApp(target);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const h = await makeProvider(app, admin, 'Resident Sheet Home');
    const o = await makeProvider(app, admin, 'Resident Sheet Other');
    home = { id: h.id, token: await app.login(h.userName, h.password) };
    other = { id: o.id, token: await app.login(o.userName, o.password) };
    await makePlace(app, home.token, { area: 'East', floor: '1F', room: '101', beds: ['1', '2', '3'] });
    await seedCommunity(app, home.id, 'Riverside');
  });
  afterAll(() => app?.close());

  it('serves a template with every column and notes on how to fill them in', async () => {
    const file = await app.download(residentExcelModel, {}, { token: home.token, lang: 'en-US' });
    expect(sheetRows(file)).toEqual([HEADER]);
    const notes = notesOf(file).join('\n');
    expect(notes).toContain('Date of birth: a date written YYYY-MM-DD or YYYY/MM/DD.');
    expect(notes).toContain('Height (cm): a whole number from 1 to 255.');
  });

  it('registers residents, with contacts, history and community, and checks in those with a bed', async () => {
    const res = await importResidents([
      row('Ada Lovelace', {
        'Date of birth': '1941/12/10',
        'Height (cm)': 158,
        'Medical history': 'hypertension, stroke',
        'Emergency contact': 'Byron',
        'Emergency contact phone': '13800138000',
        'Emergency contact relation': 'child',
        Priority: 'yes',
        Community: 'riverside',
        'Area / building': 'East',
        'Floor / unit': '1F',
        Room: '101',
        Bed: '1',
      }),
      row('Grace Hopper', { Gender: 'female', 'Second emergency contact': 'Amy' }),
      row('Alan Turing', { Gender: 'male' }),
    ]);
    // Amy has no phone: the whole file is refused, naming the second contact's phone.
    expect(res.msgKey).toBe('import.rowErrors');
    expect((res.data as unknown as Refusal).problems).toEqual([
      { row: 3, column: 'Second emergency contact phone', reason: 'Second emergency contact phone is required.' },
      {
        row: 3,
        column: 'Second emergency contact relation',
        reason: 'Second emergency contact relation must be one of: child, friend, relative.',
      },
    ]);
    expect(await names(home.token)).toEqual([]);

    const fixed = await importResidents([
      row('Ada Lovelace', {
        'Date of birth': '1941/12/10',
        'Height (cm)': 158,
        'Medical history': 'hypertension, stroke',
        'Emergency contact': 'Byron',
        'Emergency contact phone': '13800138000',
        'Emergency contact relation': 'child',
        Priority: 'yes',
        Community: 'riverside',
        'Area / building': 'East',
        'Floor / unit': '1F',
        Room: '101',
        Bed: '1',
      }),
      row('Grace Hopper', {
        'Second emergency contact': 'Amy',
        'Second emergency contact phone': '+44 20 7946 0958',
        'Second emergency contact relation': 'friend',
      }),
      row('Alan Turing', { Gender: 'male' }),
    ]);
    expect(fixed.status, fixed.msg).toBe(200);
    expect(fixed.data).toEqual({ imported: 3, checkedIn: 1 });
    const list = (await app.call(residentList, { pageSize: 10 }, { token: home.token })).data?.rows ?? [];
    const ada = list.find((r) => r.name === 'Ada Lovelace');
    expect(ada).toMatchObject({
      state: 'checkedIn',
      bedName: '1',
      roomName: '101',
      birthDate: '1941-12-10',
      height: 158,
      medicalHistory: ['hypertension', 'stroke'],
      priority: true,
      communityName: 'Riverside',
    });
    const detail = await app.call(getResident, { id: ada?.id ?? 0 }, { token: home.token });
    expect(detail.data?.contacts).toEqual([expect.objectContaining({ name: 'Byron', phone: '13800138000' })]);
    const grace = list.find((r) => r.name === 'Grace Hopper');
    const graceDetail = await app.call(getResident, { id: grace?.id ?? 0 }, { token: home.token });
    expect(graceDetail.data?.contacts).toEqual([expect.objectContaining({ name: 'Amy', phone: '+442079460958' })]);
    expect(list.find((r) => r.name === 'Alan Turing')).toMatchObject({ state: 'registered', gender: 0 });
  });

  it('reports every bad row of a file (cells, rules, beds, community) and imports nothing', async () => {
    const before = await names(home.token);
    const res = await importResidents([
      row('Bad Gender', { Gender: 'unknown' }),
      row('Bad Date', { 'Date of birth': '1940-02-30' }),
      row('Bad Phone', {
        'Emergency contact': 'X',
        'Emergency contact phone': '123',
        'Emergency contact relation': 'friend',
      }),
      row('No Bed', { 'Area / building': 'East', 'Floor / unit': '1F', Room: '101', Bed: '9' }),
      row('Taken Bed', { 'Area / building': 'East', 'Floor / unit': '1F', Room: '101', Bed: '1' }),
      row('Half Path', { 'Area / building': 'East', Room: '101' }),
      row('Nowhere', { Community: 'Atlantis' }),
      row('Twin A', { 'Area / building': 'East', 'Floor / unit': '1F', Room: '101', Bed: '2' }),
      row('Twin B', { 'Area / building': 'east', 'Floor / unit': '1f', Room: '101', Bed: '2' }),
      row('Too Tall', { 'Height (cm)': 300 }),
    ]);
    expect([res.status, res.msgKey]).toEqual([400, 'import.rowErrors']);
    const problems = (res.data as unknown as Refusal).problems.map((p) => [p.row, p.column, p.reason]);
    expect(problems).toEqual([
      [2, 'Gender', 'must be male or female'],
      [3, 'Date of birth', 'must be a date written YYYY-MM-DD or YYYY/MM/DD'],
      [4, 'Emergency contact phone', expect.stringContaining('phone')],
      [5, 'Bed', 'There is no bed East / 1F / 101 / 9.'],
      [6, 'Bed', 'Bed East / 1F / 101 / 1 already holds Ada Lovelace.'],
      [7, 'Bed', 'Give area / building, floor / unit, room and bed together, or none of them.'],
      [8, 'Community', 'There is no community named Atlantis.'],
      [10, 'Bed', 'repeats row 9 of this file'],
      [11, 'Height (cm)', 'must be between 1 and 255'],
    ]);
    expect(await names(home.token)).toEqual(before);
  });

  it('reports a bad optional cell and a broken rule of the same row together (issue 8, point 13)', async () => {
    const res = await importResidents([
      row('Two Problems', {
        'Medical history': 'flu',
        'Emergency contact': 'X',
        'Emergency contact phone': '123',
        'Emergency contact relation': 'friend',
      }),
    ]);
    expect([res.status, res.msgKey]).toEqual([400, 'import.rowErrors']);
    const problems = (res.data as unknown as Refusal).problems.map((p) => [p.row, p.column]);
    // Before, the phone appeared only once the medical history had been fixed.
    expect(problems).toEqual([
      [2, 'Medical history'],
      [2, 'Emergency contact phone'],
    ]);
  });

  it('asks before registering a name that exists, and registers it when confirmed', async () => {
    const ask = await importResidents([row('Alan Turing', { Gender: 'male' }), row('Katherine Johnson')]);
    expect([ask.status, ask.msgKey]).toEqual([300, 'import.sameNameConfirm']);
    expect(ask.data as unknown as Refusal).toEqual({
      confirmField: 'confirmSameName',
      problems: [{ row: 2, column: 'Name', reason: expect.stringContaining('Alan Turing') }],
    });
    expect(await names(home.token)).not.toContain('Katherine Johnson');
    const confirmed = await importResidents(
      [row('Alan Turing', { Gender: 'male' }), row('Katherine Johnson')],
      home.token,
      {
        confirmSameName: 'true',
      },
    );
    expect(confirmed.status, confirmed.msg).toBe(200);
    expect((await names(home.token)).filter((n) => n === 'Alan Turing')).toHaveLength(2);
  });

  it('exports residents in the template columns, and the export imports into another home', async () => {
    const file = await app.download(residentExportData, { keyWord: 'Ada' }, { token: home.token, lang: 'en-US' });
    const rows = sheetRows(file);
    expect(rows[0]).toEqual([...HEADER, 'Check-in state', 'Provider']);
    expect(rows[1]).toEqual([
      'Ada Lovelace',
      'female',
      '1941-12-10',
      '158',
      '',
      'hypertension, stroke',
      '',
      'Byron',
      '13800138000',
      'child',
      '',
      '',
      '',
      'yes',
      'Riverside',
      '',
      'East',
      '1F',
      '101',
      '1',
      'checked in',
      'Resident Sheet Home',
    ]);

    // The other home gets the same beds (from the bed export) and the same community first.
    const beds = await app.download(bunkExportData, {}, { token: home.token });
    const bedRows = sheetRows(beds).map((r) => r.slice(0, 6));
    expect((await app.call(bunkImportData, uploadForm(workbook(bedRows)), { token: other.token })).status).toBe(200);
    await seedCommunity(app, other.id, 'Riverside');
    const all = await app.download(residentExportData, {}, { token: home.token });
    const res = await app.call(
      residentBatchAdd,
      uploadForm(workbook(sheetRows(all)), 'residents.xlsx', { confirmSameName: 'true' }),
      {
        token: other.token,
      },
    );
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data).toEqual({ imported: 5, checkedIn: 1 });
    expect(await names(other.token)).toEqual(await names(home.token));
  });
});
