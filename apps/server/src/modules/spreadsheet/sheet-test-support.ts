import { crc32, deflateRawSync } from 'node:zlib';
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

/** A zip of one deflated entry whose headers may lie about its inflated size (bomb tests). */
export const zipWith = (name: string, content: Uint8Array, declared = content.length): Uint8Array => {
  const data = deflateRawSync(content);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + nameBytes.length + data.length;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(central.length + nameBytes.length, 12);
  eocd.writeUInt32LE(cdOffset, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, central, nameBytes, eocd]));
};

/** A minimal .xlsx whose one worksheet is exactly this XML (hostile-file tests: lying dimensions, far columns). */
export const xlsxWithSheetXml = (sheetXml: string): Uint8Array => {
  const entries: [string, string][] = [
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
        '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        '</Relationships>',
    ],
    ['xl/worksheets/sheet1.xml', sheetXml],
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const content = Buffer.from(text, 'utf8');
    const data = deflateRawSync(content);
    const nameBytes = Buffer.from(name);
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(directory.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, eocd]));
};

/** A worksheet's XML: inline-string cells by reference (`A1`, `XFD7`), with the dimension it claims. */
export const sheetXml = (cells: readonly (readonly [string, string])[], dimension?: string): string => {
  const rows = new Map<number, string[]>();
  for (const [ref, value] of cells) {
    const row = Number(/\d+$/.exec(ref)?.[0]);
    const cell = `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
    rows.set(row, [...(rows.get(row) ?? []), cell]);
  }
  const data = [...rows.entries()].map(([r, cs]) => `<row r="${r}">${cs.join('')}</row>`).join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    (dimension ? `<dimension ref="${dimension}"/>` : '') +
    `<sheetData>${data}</sheetData></worksheet>`
  );
};
