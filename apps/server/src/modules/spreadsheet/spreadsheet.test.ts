import { zipWith } from './sheet-test-support.ts';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/app-error.ts';
import { date, gender, integer, oneOf, text } from './cells.ts';
import { duplicatesWithin, refuseImport } from './import-outcome.ts';
import { readFirstSheet } from './sheet-reader.ts';
import { COLUMN_WIDTH, columnWidths, neutralise, unneutralise, writeWorkbook } from './sheet-writer.ts';
import { parseTable } from './table-parser.ts';
import { inspectZip } from './zip-guard.ts';

const book = (rows: unknown[][], bookType: 'xlsx' | 'biff8' = 'xlsx'): Uint8Array => {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows, { cellDates: true }), 'Sheet1');
  return new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType }) as Buffer);
};
const file = (bytes: Uint8Array, filename = 'residents.xlsx') => ({
  filename,
  mimetype: 'application/octet-stream',
  bytes,
});
const keyOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.key;
    throw e;
  }
  return 'no error';
};

/** A zip with one deflated entry whose central header declares `declared` bytes. */

describe('reading an uploaded spreadsheet', () => {
  const rows = [
    ['姓名', '性别', '出生日期', '身高'],
    ['张三', '男', new Date(1950, 2, 21), 170],
    ['Li Si', 'female', '1948/7/4', '165'],
  ];

  it('reads .xlsx and .xls alike, dates as YYYY-MM-DD and numbers as text', () => {
    for (const [bytes, name] of [
      [book(rows), 'a.xlsx'],
      [book(rows, 'biff8'), 'a.xls'],
    ] as const) {
      expect(readFirstSheet(file(bytes, name))).toEqual([
        ['姓名', '性别', '出生日期', '身高'],
        ['张三', '男', '1950-03-21', '170'],
        ['Li Si', 'female', '1948/7/4', '165'],
      ]);
    }
  });

  it('refuses other types, and a spreadsheet whose extension and content disagree', () => {
    expect(keyOf(() => readFirstSheet(file(new TextEncoder().encode('a,b\n1,2'), 'a.csv')))).toBe('import.format');
    expect(keyOf(() => readFirstSheet(file(new TextEncoder().encode('a,b\n1,2'), 'a.xlsx')))).toBe('import.format');
    expect(keyOf(() => readFirstSheet(file(book(rows), 'a.xls')))).toBe('import.format');
    expect(keyOf(() => readFirstSheet(file(book(rows, 'biff8'), 'a.xlsx')))).toBe('import.format');
  });

  it('refuses empty sheets, single columns, too many rows and oversized files', () => {
    expect(keyOf(() => readFirstSheet(file(book([['姓名', '性别']]))))).toBe('import.empty');
    expect(keyOf(() => readFirstSheet(file(book([['姓名'], ['张三']]))))).toBe('import.columns');
    const many = [['a', 'b'], ...Array.from({ length: 30 }, (_, i) => [`n${i}`, i])];
    expect(keyOf(() => readFirstSheet(file(book(many)), { maxBytes: 1e7, maxRows: 20 }))).toBe('import.tooManyRows');
    expect(readFirstSheet(file(book(many)), { maxBytes: 1e7, maxRows: 30 })).toHaveLength(31);
    expect(keyOf(() => readFirstSheet(file(book(rows)), { maxBytes: 100, maxRows: 10 }))).toBe('import.tooLarge');
  });

  it('refuses a damaged file and a zip bomb before inflating it', () => {
    const good = book(rows);
    expect(keyOf(() => readFirstSheet(file(good.slice(0, good.length - 40))))).toBe('import.unreadable');
    const bomb = zipWith('xl/worksheets/sheet1.xml', new Uint8Array(50 * 1024 * 1024));
    expect(inspectZip(bomb)).toEqual({ ok: false, reason: 'compression ratio' });
    expect(keyOf(() => readFirstSheet(file(bomb)))).toBe('import.unreadable');
  });

  it('catches a bomb that lies about its inflated size', () => {
    const liar = zipWith('xl/worksheets/sheet1.xml', new Uint8Array(300_000).fill(65), 4_000);
    expect(inspectZip(liar, { maxEntries: 10, maxTotalBytes: 1e9, maxRatio: 1e6 })).toEqual({
      ok: false,
      reason: 'entry does not match its declared size',
    });
    const honest = zipWith('a.txt', new TextEncoder().encode('hello world'));
    expect(inspectZip(honest)).toMatchObject({ ok: true, entries: 1 });
  });

  it('never evaluates formulas: cached values only', () => {
    const wb = XLSX.utils.book_new();
    const ws = XLSX.utils.aoa_to_sheet([
      ['a', 'b'],
      ['x', 1],
    ]);
    ws.B2 = { t: 'n', v: 1, f: 'WEBSERVICE("http://evil")' };
    XLSX.utils.book_append_sheet(wb, ws, 'S');
    const bytes = new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    expect(readFirstSheet(file(bytes))[1]).toEqual(['x', '1']);
  });
});

describe('writing an export', () => {
  it('neutralises text that a spreadsheet program would run, and imports read it back unchanged', () => {
    for (const hostile of ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd']) {
      expect(neutralise(hostile)).toBe(`'${hostile}`);
      expect(unneutralise(neutralise(hostile))).toBe(hostile);
    }
    expect(neutralise('张三')).toBe('张三');
    expect(unneutralise("'plain")).toBe("'plain");
  });

  it('round-trips through the reader with no formula cells', () => {
    const out = writeWorkbook(
      {
        sheetName: 'Residents',
        header: ['名称', '备注'],
        rows: [
          ['=1+2', 'ok'],
          ['王五', null],
        ],
      },
      'r.xlsx',
    );
    const wb = XLSX.read(out.bytes, { type: 'buffer', cellFormula: true });
    const ws = wb.Sheets.Residents;
    expect(ws?.A2?.f).toBeUndefined();
    expect(ws?.A2?.t).toBe('s');
    const rows = readFirstSheet(file(out.bytes, 'r.xlsx'));
    expect(rows[1]?.[0]).toBe("'=1+2");
    const parsed = parseTable(rows, { name: { header: 'field.name', required: true, parse: text(40) } }, 'zh-CN');
    expect(parsed.records.map((r) => r.values.name)).toEqual(['=1+2', '王五']);
  });

  it('sizes each column to its widest cell, a Chinese character counting two, within bounds', () => {
    const widths = columnWidths({
      header: ['Time', '位置', 'Id', 'Note'],
      rows: [
        ['2026-11-26 22:15:03', '主楼 / 一层 / 101 / A', 7, 'x'.repeat(200)],
        [null, '二层', 12345, null],
      ],
    });
    // 主楼一层: four wide characters; " / 101 / A" and the other separators: 13 narrow ones.
    expect(widths).toEqual([19 + 2, 2 * 4 + 13 + 2, COLUMN_WIDTH.min, COLUMN_WIDTH.max]);
    const out = writeWorkbook({ sheetName: 'Log', header: ['Time'], rows: [['2026-11-26 22:15:03']] }, 'l.xlsx');
    const sheet = XLSX.read(out.bytes, { type: 'buffer', cellStyles: true }).Sheets.Log;
    expect(sheet?.['!cols']?.map((c) => c.wch)).toEqual([21]);
  });
});

describe('parsing rows into records', () => {
  const columns = {
    name: { header: 'field.name', required: true, parse: text(32) },
    gender: { header: 'field.remark', required: true, parse: gender },
  } as const;

  it('maps headers of either language in any order and reports every bad row with row number and column', () => {
    const result = parseTable(
      [
        ['Remark', 'Name'],
        ['男', '张三'],
        ['x', '李四'],
        ['', '王五'],
        ['female', ''],
      ],
      columns,
      'en-US',
    );
    expect(result.records).toEqual([{ row: 2, values: { name: '张三', gender: 0 } }]);
    expect(result.problems).toEqual([
      { row: 3, column: 'Remark', reason: 'must be male or female' },
      { row: 4, column: 'Remark', reason: 'is required (incomplete row)' },
      { row: 5, column: 'Name', reason: 'is required (incomplete row)' },
    ]);
  });

  it('reports a missing required column once, on the header row', () => {
    const result = parseTable(
      [
        ['Name', 'Other'],
        ['张三', 'x'],
      ],
      columns,
      'zh-CN',
    );
    expect(result.records).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ row: 1, column: '备注' });
  });

  it('checks dates, integers and option lists', () => {
    expect(date('1950-3-21', 'zh-CN')).toEqual({ ok: true, value: '1950-03-21' });
    expect(date('1950/02/30', 'zh-CN')).toMatchObject({ ok: false, reason: 'import.cell.date' });
    expect(date('21.03.1950', 'zh-CN')).toMatchObject({ ok: false });
    expect(integer(1, 255)('170', 'zh-CN')).toEqual({ ok: true, value: 170 });
    expect(integer(1, 255)('170.5', 'zh-CN')).toMatchObject({ ok: false, reason: 'import.cell.number' });
    expect(integer(1, 255)('0', 'zh-CN')).toMatchObject({ ok: false, reason: 'import.cell.range' });
    const mattress = oneOf([
      { value: 'male', label: 'sheet.gender.male' },
      { value: 'female', label: 'sheet.gender.female' },
    ]);
    expect(mattress('女', 'en-US')).toEqual({ ok: true, value: 'female' });
    expect(mattress('x', 'en-US')).toMatchObject({ ok: false, params: { options: 'male, female' } });
  });

  it('finds rows repeating an earlier row, and refuses with every problem attached', () => {
    const dups = duplicatesWithin(
      [
        { row: 2, bed: 'A-1' },
        { row: 3, bed: 'A-2' },
        { row: 4, bed: 'a-1'.toUpperCase() },
      ],
      (r) => r.bed,
    );
    expect(dups.map((d) => [d.record.row, d.first])).toEqual([[4, 2]]);
    const error = refuseImport([{ row: 4, column: 'Bed', reason: 'repeats row 2 of this file' }]);
    expect(error.key).toBe('import.rowErrors');
    expect(error.data).toEqual({ problems: [{ row: 4, column: 'Bed', reason: 'repeats row 2 of this file' }] });
  });
});
