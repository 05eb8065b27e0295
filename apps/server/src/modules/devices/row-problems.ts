import {
  describeIssue,
  fieldLabel,
  isMessageKey,
  translate,
  type Language,
  type MessageKey,
  type MessageParams,
} from '@vigil/contract';
import type { z } from 'zod';

/**
 * One problem of a batch (registry import, device batch add), as data: the row's position in the
 * list (from 0), the field at fault and a message key with its parameters (without the field
 * label, which the caller words in its language).
 */
export interface DeviceRowProblem {
  index: number;
  field: string;
  key: MessageKey;
  params: MessageParams;
}

/** The first schema issue of a row as a problem. */
export const problemOfIssue = (index: number, issue: z.core.$ZodIssue, row: unknown): DeviceRowProblem => {
  const described = describeIssue('en-US', issue, row);
  const { field: _label, ...params } = described.params;
  const last = issue.path[issue.path.length - 1];
  return { index, field: last === undefined ? 'row' : String(last), key: described.key, params };
};

/** A problem worded for the caller: what the API answers in `data.problems`. */
export const wordProblem = (lang: Language, p: DeviceRowProblem) => ({
  index: p.index,
  field: p.field,
  msgKey: p.key,
  msg: translate(lang, p.key, { ...p.params, field: fieldLabel(lang, p.field) }),
});

/** SQLSTATE and constraint of a database error, looking through the query error's causes. */
export const constraintOf = (error: unknown): { code: string; constraint: string | undefined } | undefined => {
  let current = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, constraint, cause } = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
    }
    current = cause;
  }
  return undefined;
};

/** The message of a unique violation on one of the given constraints, if the error is one. */
export const uniqueMessage = (
  error: unknown,
  messages: Readonly<Record<string, MessageKey>>,
): MessageKey | undefined => {
  const db = constraintOf(error);
  if (db?.code !== '23505' || !db.constraint) return undefined;
  const key = messages[db.constraint];
  return key && isMessageKey(key) ? key : undefined;
};
