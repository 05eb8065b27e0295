import type { BinaryBody } from '@vigil/contract';
import * as XLSX from '@e965/xlsx';

export type SheetCell = string | number | null;

export interface SheetData {
  sheetName: string;
  header: readonly string[];
  rows: readonly (readonly SheetCell[])[];
  /** Optional second sheet of notes (template instructions). */
  notes?: readonly string[];
}

const TRIGGERS = /^[=+\-@\t\r]/;

/**
 * Text a spreadsheet program could run as a formula (=, +, -, @, tab, CR) gets a leading
 * apostrophe (OWASP's CSV-injection advice, kept for .xlsx because users re-save as CSV).
 * Imports strip it again, so an export re-imports to the same values.
 */
export const neutralise = (value: string): string => (TRIGGERS.test(value) ? `'${value}` : value);
export const unneutralise = (value: string): string =>
  value.startsWith("'") && TRIGGERS.test(value.slice(1)) ? value.slice(1) : value;

const cell = (value: SheetCell): XLSX.CellObject =>
  value === null ? { t: 'z' } : typeof value === 'number' ? { t: 'n', v: value } : { t: 's', v: neutralise(value) };

/** East Asian wide and full-width characters: a spreadsheet shows each about two characters wide. */
const WIDE =
  /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;
const displayWidth = (value: SheetCell): number =>
  value === null ? 0 : [...String(value)].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0);

/** Narrowest and widest column (characters): a very long text (a handler's note) does not stretch its column across screens. */
export const COLUMN_WIDTH = { min: 8, max: 60 } as const;

/**
 * Each column's width in characters: its widest cell, header included, plus a margin — so a date,
 * a name or a place reads whole when the file opens, in Chinese as in English.
 */
export const columnWidths = (data: Pick<SheetData, 'header' | 'rows'>): number[] =>
  data.header.map((header, col) => {
    const widest = data.rows.reduce((max, row) => Math.max(max, displayWidth(row[col] ?? null)), displayWidth(header));
    return Math.min(COLUMN_WIDTH.max, Math.max(COLUMN_WIDTH.min, widest + 2));
  });

/** Builds an .xlsx: every text cell is typed as text, never as a formula; columns as wide as their content. */
export const writeWorkbook = (data: SheetData, filename: string): BinaryBody => {
  const book = XLSX.utils.book_new();
  const rows = [data.header.map((h) => cell(h)), ...data.rows.map((r) => r.map(cell))];
  const sheet: XLSX.WorkSheet = {};
  rows.forEach((row, r) =>
    row.forEach((c, col) => {
      if (c.t !== 'z') sheet[XLSX.utils.encode_cell({ r, c: col })] = c;
    }),
  );
  sheet['!ref'] = XLSX.utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: Math.max(rows.length - 1, 0), c: Math.max(data.header.length - 1, 0) },
  });
  sheet['!cols'] = columnWidths(data).map((wch) => ({ wch }));
  XLSX.utils.book_append_sheet(book, sheet, data.sheetName.slice(0, 31));
  if (data.notes?.length) {
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(data.notes.map((n) => [neutralise(n)])), 'README');
  }
  const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
  return {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    bytes: new Uint8Array(bytes),
    filename,
  };
};
