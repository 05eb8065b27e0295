import { CONSTANTS, type UploadedFile } from '@vigil/contract';
import * as XLSX from '@e965/xlsx';
import { invalid } from '../../core/app-error.ts';
import { inflatedEntries, inspectZip } from './zip-guard.ts';

/** One sheet's cells as trimmed text, header row first; dates as YYYY-MM-DD. */
export type SheetRows = string[][];

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

const pad = (n: number) => String(n).padStart(2, '0');
const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  // SheetJS builds date cells in local time: read them back the same way.
  if (value instanceof Date)
    return Number.isNaN(value.getTime())
      ? ''
      : `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value).trim();
};

/**
 * What an import reads at most. Columns beyond `maxColumns` are never read (a sheet may claim
 * 16,384 columns or a million rows in its dimension, or put one cell in column XFD of every row:
 * reading it densely would take gigabytes), and a sheet with more cells than `maxCells` is refused
 * before it is parsed at all.
 */
export type SheetLimits = { maxBytes: number; maxRows: number; maxColumns: number; maxCells: number };

export const DEFAULT_SHEET_LIMITS: SheetLimits = {
  maxBytes: CONSTANTS.spreadsheetImport.maxBytes,
  maxRows: CONSTANTS.spreadsheetImport.maxRows,
  maxColumns: CONSTANTS.spreadsheetImport.maxColumns,
  maxCells: CONSTANTS.spreadsheetImport.maxCells,
};

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;
/** A cell element, prefixed (`<x:c `) or not; `<col`, `<cols` and `<cfRule` do not match. */
const CELL_TAG = /<(?:[A-Za-z_][\w.-]*:)?c[\s>/]/g;

/** The most cells any worksheet of an (inspected) .xlsx holds, counted in its XML without parsing it. */
const mostCellsOfASheet = (bytes: Uint8Array): number => {
  let most = 0;
  for (const xml of inflatedEntries(bytes, (name) => WORKSHEET.test(name)).values()) {
    most = Math.max(most, xml.toString('latin1').match(CELL_TAG)?.length ?? 0);
  }
  return most;
};

/** The rows and columns that hold cells, from the cells themselves (a sheet's own `!ref` may lie), within the limits. */
const usedRange = (sheet: XLSX.WorkSheet, limits: SheetLimits): XLSX.Range | undefined => {
  let lastRow = -1;
  let lastColumn = -1;
  for (const key of Object.keys(sheet)) {
    if (key.startsWith('!')) continue;
    const { r, c } = XLSX.utils.decode_cell(key);
    if (c >= limits.maxColumns || r > limits.maxRows + 1) continue;
    lastRow = Math.max(lastRow, r);
    lastColumn = Math.max(lastColumn, c);
  }
  return lastRow < 0 ? undefined : { s: { r: 0, c: 0 }, e: { r: lastRow, c: lastColumn } };
};

/** A spreadsheet in memory: the name it was uploaded as and its bytes. */
export type SheetFile = { filename: string; bytes: Uint8Array };

const tooLarge = (limits: SheetLimits) => invalid('import.tooLarge', { maxMb: limits.maxBytes / 1024 / 1024 });

/**
 * Reads the first sheet of an upload (see readFirstSheet): its size is checked before the file is
 * read into memory, which the spreadsheet parser needs.
 */
export const readUploadedSheet = async (
  file: UploadedFile,
  overrides: Partial<SheetLimits> = {},
): Promise<SheetRows> => {
  const limits: SheetLimits = { ...DEFAULT_SHEET_LIMITS, ...overrides };
  if (file.size > limits.maxBytes) throw tooLarge(limits);
  return readFirstSheet({ filename: file.filename, bytes: await file.read() }, limits);
};

/**
 * Reads the first sheet of an uploaded .xls/.xlsx. The extension and the file's own signature
 * must agree, the size is capped before parsing and an .xlsx's zip is inspected for bombs
 * and its cells counted before the parser inflates it; cells are kept sparse and only the
 * columns an import can use are read; formulas are never evaluated (cached values only).
 */
export const readFirstSheet = (file: SheetFile, overrides: Partial<SheetLimits> = {}): SheetRows => {
  const limits: SheetLimits = { ...DEFAULT_SHEET_LIMITS, ...overrides };
  const name = file.filename.toLowerCase();
  const { bytes } = file;
  if (bytes.length > limits.maxBytes) throw tooLarge(limits);
  const isXlsx = name.endsWith('.xlsx') && startsWith(bytes, ZIP_MAGIC);
  const isXls = name.endsWith('.xls') && startsWith(bytes, CFB_MAGIC);
  if (!isXlsx && !isXls) throw invalid('import.format');
  if (isXlsx && !inspectZip(bytes).ok) throw invalid('import.unreadable');
  if (isXlsx && mostCellsOfASheet(bytes) > limits.maxCells) {
    throw invalid('import.tooManyCells', { max: limits.maxCells, columns: limits.maxColumns });
  }

  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: 'buffer',
      cellDates: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
      // Header + allowed rows + one more, so an oversized sheet is detected without parsing all of it.
      sheetRows: limits.maxRows + 2,
      sheets: 0,
      // Sparse: memory follows the cells present, not the area a sheet claims.
      dense: false,
    });
  } catch {
    throw invalid('import.unreadable');
  }
  const firstName = workbook.SheetNames[0];
  const sheet = firstName === undefined ? undefined : workbook.Sheets[firstName];
  if (!sheet) throw invalid('import.empty');
  const range = usedRange(sheet, limits);
  if (!range) throw invalid('import.empty');
  const raw = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
    header: 1,
    raw: true,
    defval: null,
    blankrows: false,
    range,
  });
  const rows = raw.map((row) => row.map(cellText)).filter((row) => row.some((cell) => cell !== ''));
  if (rows.length < 2) throw invalid('import.empty');
  const width = Math.max(...rows.map((r) => r.length));
  if (width < 2) throw invalid('import.columns');
  if (rows.length - 1 > limits.maxRows)
    throw invalid('import.tooManyRows', { max: limits.maxRows, rows: `> ${limits.maxRows}` });
  return rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
};
