import { Status, translate, type Language, type MessageKey, type MessageParams } from '@vigil/contract';
import { AppError } from '../../core/app-error.ts';
import type { RowProblem } from './table-parser.ts';

/** The refusal of an import: every problem travels in `data.problems`; nothing was written. */
export const refuseImport = (problems: readonly RowProblem[]): AppError =>
  new AppError(Status.INVALID_INPUT, 'import.rowErrors', { count: problems.length }, 200, { problems });

/**
 * A refusal the user may overrule (same-name residents): inner status 300 like the console's other
 * "continue?" answers, the problems listed, and the form field that confirms when sent as true.
 */
export const askToConfirm = (key: MessageKey, problems: readonly RowProblem[], confirmField: string): AppError =>
  new AppError(Status.FAILED, key, { count: problems.length }, 200, { problems, confirmField });

/** A problem found after parsing (duplicate bed, unregistered device …), worded like the parser's. */
export const rowProblem = (
  lang: Language,
  row: number,
  column: MessageKey,
  reason: MessageKey,
  params?: MessageParams,
): RowProblem => ({ row, column: translate(lang, column), reason: translate(lang, reason, params) });

/** Rows whose key repeats an earlier row of the same file. */
export const duplicatesWithin = <R extends { row: number }>(
  records: readonly R[],
  keyOf: (record: R) => string | null,
): { record: R; first: number }[] => {
  const seen = new Map<string, number>();
  const out: { record: R; first: number }[] = [];
  for (const record of records) {
    const key = keyOf(record);
    if (key === null) continue;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, record.row);
    else out.push({ record, first });
  }
  return out;
};
