import { LANGUAGES, translate, type Language, type MessageKey, type MessageParams } from '@vigil/contract';
import type { SheetRows } from './sheet-reader.ts';
import { unneutralise } from './sheet-writer.ts';

export type CellResult<T> = { ok: true; value: T } | { ok: false; reason: MessageKey; params?: MessageParams };
export type CellParser<T> = (text: string, lang: Language) => CellResult<T>;

export interface Column<T> {
  /** Header label key; the header row may use the label of any server language. */
  header: MessageKey;
  required: boolean;
  parse: CellParser<T>;
}

export type Columns = Record<string, Column<unknown>>;
export type RecordOf<C extends Columns> = {
  [K in keyof C]: C[K] extends Column<infer T> ? (C[K]['required'] extends true ? T : T | null) : never;
};

/** One problem of an import, as the console lists it: spreadsheet row number (header = 1), column, reason. */
export interface RowProblem {
  row: number;
  column: string;
  reason: string;
}

export interface ParsedTable<C extends Columns> {
  records: { row: number; values: RecordOf<C> }[];
  problems: RowProblem[];
}

const norm = (s: string) => s.replace(/\s+/g, '').toLowerCase();

/**
 * Maps the header row to columns (in any order, labels of any language), then parses every
 * row, collecting every problem rather than stopping at the first: a failing import must
 * report all bad rows at once. `records` holds every row whose required cells read well (the
 * others cannot be checked further); callers refuse the file when `problems` is not empty.
 */
export const parseTable = <C extends Columns>(rows: SheetRows, columns: C, lang: Language): ParsedTable<C> => {
  const [header = [], ...body] = rows;
  const index = new Map<string, number>();
  const problems: RowProblem[] = [];
  for (const [key, column] of Object.entries(columns)) {
    const labels = new Set(LANGUAGES.map((l) => norm(translate(l, column.header))));
    const at = header.findIndex((h) => labels.has(norm(h)));
    if (at >= 0) index.set(key, at);
    else if (column.required)
      problems.push({
        row: 1,
        column: translate(lang, column.header),
        reason: translate(lang, 'import.missingColumn', { column: translate(lang, column.header) }),
      });
  }
  if (problems.length) return { records: [], problems };

  const records: ParsedTable<C>['records'] = [];
  body.forEach((cells, i) => {
    const row = i + 2;
    const values: Record<string, unknown> = {};
    // A row whose required cells read well is still checked by the domain when an optional cell
    // failed (that cell left empty), so every problem of the row is reported at once.
    let requiredRead = true;
    for (const [key, column] of Object.entries(columns)) {
      const at = index.get(key);
      const text = at === undefined ? '' : unneutralise(cells[at] ?? '').trim();
      if (text === '') {
        if (column.required) {
          problems.push({
            row,
            column: translate(lang, column.header),
            reason: translate(lang, 'import.cell.required'),
          });
          requiredRead = false;
        }
        values[key] = null;
        continue;
      }
      const result = column.parse(text, lang);
      if (result.ok) values[key] = result.value;
      else {
        problems.push({
          row,
          column: translate(lang, column.header),
          reason: translate(lang, result.reason, result.params),
        });
        values[key] = null;
        if (column.required) requiredRead = false;
      }
    }
    if (requiredRead) records.push({ row, values: values as RecordOf<C> });
  });
  return { records, problems };
};
