import {
  bunkImportData,
  deviceBatchAdd,
  deviceStockImportSheet,
  heHostBatchAdd,
  heInfraredBatchAdd,
  nursingBatchAdd,
  residentBatchAdd,
  Status,
  type CallDef,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { sheetXml, uploadForm, xlsxWithSheetXml } from './sheet-test-support.ts';

/**
 * Issue 8, point 22: a 166 KB .xlsx of 20,000 rows, each with one cell in column XFD, took the
 * server down (the reader materialised 16,384 columns a row). Every import call gets it, and a sheet
 * whose dimension claims A1:XFD1048576: each answers 400 and memory stays flat.
 */
const IMPORTS: readonly { call: CallDef; admin?: true }[] = [
  { call: bunkImportData },
  { call: residentBatchAdd },
  { call: deviceBatchAdd },
  { call: heHostBatchAdd },
  { call: heInfraredBatchAdd },
  { call: nursingBatchAdd },
  { call: deviceStockImportSheet, admin: true },
];

/** One cell in the last column (XFD) of each of 20,000 rows. */
const farColumnSheet = () =>
  xlsxWithSheetXml(
    sheetXml(
      Array.from({ length: 20_000 }, (_, i) => [`XFD${i + 1}`, 'x'] as const),
      'A1:XFD20000',
    ),
  );

/** A header and one row, in a sheet that claims every column and row Excel has. */
const lyingDimensionSheet = () =>
  xlsxWithSheetXml(
    sheetXml(
      [
        ['A1', 'a'],
        ['B1', 'b'],
        ['XFD1048576', 'far'],
      ],
      'A1:XFD1048576',
    ),
  );

/** Cells the reader may not even parse: more than the cap in one sheet. */
const crowdedSheet = () =>
  xlsxWithSheetXml(
    sheetXml(
      Array.from({ length: 1_100_000 }, (_, i) => [
        `${String.fromCharCode(65 + (i % 20))}${Math.floor(i / 20) + 1}`,
        '',
      ]),
    ),
  );

describe('hostile spreadsheets sent to every import call', () => {
  let app: TestApp;
  let admin: string;
  let provider: string;
  beforeAll(async () => {
    app = await createTestApp('pglite');
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const home = await makeProvider(app, admin, 'Hostile Sheet Home');
    provider = await app.login(home.userName, home.password);
  });
  afterAll(() => app.close());

  const send = async (call: CallDef, bytes: Uint8Array, token: string) => {
    const res = await app.call(call, uploadForm(bytes, 'attack.xlsx'), { token });
    return { status: res.status, key: res.msgKey };
  };

  it('answers 400 to 20,000 rows with a cell in column XFD, with flat memory', async () => {
    const file = farColumnSheet();
    expect(file.length).toBeLessThan(400 * 1024);
    const before = process.memoryUsage().rss;
    for (const { call, admin: asAdmin } of IMPORTS) {
      const answer = await send(call, file, asAdmin ? admin : provider);
      expect(answer, call.path).toEqual({ status: Status.INVALID_INPUT, key: 'import.empty' });
    }
    // The old reader needed gigabytes for one such file; a few dozen megabytes is noise.
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  it('reads only the cells of a sheet whose dimension claims A1:XFD1048576', async () => {
    const file = lyingDimensionSheet();
    const before = process.memoryUsage().rss;
    for (const { call, admin: asAdmin } of IMPORTS) {
      const answer = await send(call, file, asAdmin ? admin : provider);
      expect(answer.status, call.path).toBe(Status.INVALID_INPUT);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  it('refuses a sheet with more cells than an import may hold, before parsing it', async () => {
    const answer = await send(bunkImportData, crowdedSheet(), provider);
    expect(answer).toEqual({ status: Status.INVALID_INPUT, key: 'import.tooManyCells' });
  });
});
