import {
  CONSTANTS,
  describeIssue,
  isMessageKey,
  translate,
  type BinaryBody,
  type Language,
  type MessageKey,
  type MessageParams,
  type UploadedFile,
} from '@vigil/contract';
import type { z } from 'zod';
import { invalid } from '../../core/app-error.ts';
import { refuseImport } from './import-outcome.ts';
import { readUploadedSheet } from './sheet-reader.ts';
import { writeWorkbook, type SheetCell } from './sheet-writer.ts';
import { parseTable, type Columns, type RecordOf, type RowProblem } from './table-parser.ts';

/** A note of the template's README sheet: a message whose {column} is filled with the column's label. */
export interface ColumnNote {
  key: MessageKey;
  params?: (lang: Language) => MessageParams;
}

/**
 * One spreadsheet of a domain: its columns (the import's, the template's and the first columns of
 * an export, in that order), the notes explaining them, and which column a field the domain's
 * service names in a problem belongs to.
 */
export interface SheetDefinition<C extends Columns> {
  name: MessageKey;
  columns: C;
  /** Notes of a column; a column without one is noted as required or optional. */
  notes?: Partial<Record<keyof C & string, ColumnNote>>;
  /** Notes about the sheet as a whole, after the general ones. */
  sheetNotes?: readonly MessageKey[];
  /**
   * Field named by the domain → column key. A problem's field is looked up whole
   * (`contacts.1.phone`), then by its last name (`phone`), then as a column key itself.
   */
  fields?: Readonly<Record<string, keyof C & string>>;
}

/** Declares a sheet; `const` keeps each column's `required` literal, which types its records. */
export const defineSheet = <const C extends Columns>(def: SheetDefinition<C>): SheetDefinition<C> => def;

export type SheetRecord<C extends Columns> = { row: number; values: RecordOf<C> };

/** A problem as a domain service reports it: a row of its batch (from 0), a field and a message. */
export interface DomainProblem {
  index: number;
  field: string;
  key: MessageKey;
  params?: MessageParams;
}

const label = (lang: Language, key: MessageKey) => translate(lang, key);

/** The import template: the header row in the caller's language and a sheet of notes. */
export const sheetTemplate = <C extends Columns>(
  def: SheetDefinition<C>,
  lang: Language,
  filename: string,
): BinaryBody => {
  const { maxBytes, maxRows } = CONSTANTS.spreadsheetImport;
  const notes = [
    translate(lang, 'sheet.note.title'),
    translate(lang, 'sheet.note.limits', { maxMb: maxBytes / 1024 / 1024, maxRows }),
    translate(lang, 'sheet.note.allOrNothing'),
    ...(def.sheetNotes ?? []).map((key) => translate(lang, key)),
    ...Object.entries(def.columns).map(([key, column]) => {
      const column_ = label(lang, column.header);
      const note = def.notes?.[key as keyof C & string];
      if (note) return translate(lang, note.key, { column: column_, ...(note.params?.(lang) ?? {}) });
      return translate(lang, column.required ? 'sheet.note.required' : 'sheet.note.optional', { column: column_ });
    }),
  ];
  return writeWorkbook(
    {
      sheetName: label(lang, def.name),
      header: Object.values(def.columns).map((c) => label(lang, c.header)),
      rows: [],
      notes,
    },
    filename,
  );
};

/** An export: the template's columns first (so it re-imports), then columns for reading only. */
export const sheetExport = <C extends Columns, R>(
  def: SheetDefinition<C>,
  lang: Language,
  filename: string,
  rows: readonly R[],
  cellsOf: (row: R) => readonly SheetCell[],
  extra: readonly { header: MessageKey; value: (row: R) => SheetCell }[] = [],
): BinaryBody =>
  writeWorkbook(
    {
      sheetName: label(lang, def.name),
      header: [
        ...Object.values(def.columns).map((c) => label(lang, c.header)),
        ...extra.map((e) => label(lang, e.header)),
      ],
      rows: rows.map((r) => [...cellsOf(r), ...extra.map((e) => e.value(r))]),
    },
    filename,
  );

/** What an uploaded import holds: the rows whose every cell reads well, and the problems of the others. */
export interface SheetContent<C extends Columns> {
  records: SheetRecord<C>[];
  problems: RowProblem[];
}

/**
 * Reads an uploaded import: file checks (refused at once), then every cell of every row. Rows
 * with a bad cell are left out of `records`; their problems wait in `problems` so the domain can
 * check the good rows too and the user learns of every bad row in one answer (decision 0012).
 */
export const readSheet = async <C extends Columns>(
  file: UploadedFile | undefined,
  def: SheetDefinition<C>,
  lang: Language,
): Promise<SheetContent<C>> => {
  if (!file) throw invalid('import.fileMissing');
  return parseTable(await readUploadedSheet(file), def.columns, lang);
};

/** The spreadsheet row and column of a domain problem, worded in the caller's language. */
export const wordRowProblems = <C extends Columns>(
  def: SheetDefinition<C>,
  lang: Language,
  records: readonly { row: number }[],
  problems: readonly DomainProblem[],
): RowProblem[] =>
  problems.map((p) => {
    const last =
      p.field
        .split('.')
        .filter((part) => !/^\d+$/.test(part))
        .at(-1) ?? p.field;
    const columnKey = def.fields?.[p.field] ?? def.fields?.[last] ?? [p.field, last].find((f) => f in def.columns);
    const column = columnKey ? label(lang, (def.columns[columnKey] as Columns[string]).header) : p.field;
    return {
      row: records[p.index]?.row ?? p.index + 2,
      column,
      reason: translate(lang, p.key, { ...p.params, field: column }),
    };
  });

/**
 * Refuses the import when the cells or the domain found problems (all of them, by row);
 * otherwise does nothing.
 */
export const refuseOnProblems = <C extends Columns>(
  def: SheetDefinition<C>,
  lang: Language,
  content: SheetContent<C>,
  problems: readonly DomainProblem[] = [],
): void => {
  if (!content.problems.length && !problems.length) return;
  const all = [...content.problems, ...wordRowProblems(def, lang, content.records, problems)];
  throw refuseImport(all.sort((a, b) => a.row - b.row));
};

/** A record's values without the cells left empty, so a schema sees those fields as omitted. */
export const presentValues = (values: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null));

/**
 * Validates each record's input with the contract's schema (the single-row call's), collecting every
 * issue of every row: the import applies the same rules as the form. `parsed` is aligned with
 * `inputs` (undefined where a row failed).
 */
export const validateRows = <S extends z.ZodType>(
  schema: S,
  inputs: readonly unknown[],
): { parsed: (z.output<S> | undefined)[]; problems: DomainProblem[] } => {
  const problems: DomainProblem[] = [];
  const parsed = inputs.map((input, index) => {
    const result = schema.safeParse(input);
    if (result.success) return result.data as z.output<S>;
    for (const issue of result.error.issues) {
      const described = describeIssue('en-US', issue, input);
      const { field: _label, ...params } = described.params;
      problems.push({
        index,
        field: issue.path.length ? issue.path.map(String).join('.') : 'row',
        key: isMessageKey(described.key) ? described.key : 'import.cell.invalid',
        params,
      });
    }
    return undefined;
  });
  return { parsed, problems };
};

/**
 * The rows no problem names yet, with their positions among the records: the domain's batch
 * method checks these, and its problems (by position in `rows`) map back through `indexes`.
 */
export const rowsWithoutProblems = <T>(parsed: readonly (T | undefined)[], problems: readonly DomainProblem[]) => {
  const bad = new Set(problems.map((p) => p.index));
  const indexes = parsed.flatMap((row, i) => (row !== undefined && !bad.has(i) ? [i] : []));
  return { indexes, rows: indexes.map((i) => parsed[i] as T) };
};
