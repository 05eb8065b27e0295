import * as XLSX from '@e965/xlsx';
import type { DownloadedFile } from '@vigil/contract';

/** Test helpers: spreadsheets as a user's spreadsheet program saves them, and the form that uploads one. */

/** An .xlsx (or .xls) of one sheet with these rows, header first. */
export const workbook = (rows: readonly (readonly (string | number)[])[], bookType: 'xlsx' | 'biff8' = 'xlsx') => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows.map((r) => [...r])), 'Sheet1');
  return new Uint8Array(XLSX.write(book, { type: 'buffer', bookType }) as Buffer);
};

/** The multipart form of an import: the file and any extra fields. */
export const uploadForm = (bytes: Uint8Array, filename = 'import.xlsx', fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  return form;
};

/** The first sheet of a downloaded workbook, as text rows. */
export const sheetRows = (file: DownloadedFile): string[][] => {
  const book = XLSX.read(file.bytes, { type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) return [];
  return XLSX.utils
    .sheet_to_json<unknown[]>(sheet, { header: 1, defval: '', raw: false })
    .map((r) => r.map((c) => String(c)));
};

/** The notes sheet (README) of a template, one note a line. */
export const notesOf = (file: DownloadedFile): string[] => {
  const book = XLSX.read(file.bytes, { type: 'buffer' });
  const sheet = book.Sheets.README;
  if (!sheet) return [];
  return XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 }).map((r) => String(r[0] ?? ''));
};
