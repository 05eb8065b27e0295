import { UNIQUE_VIOLATION, violatedConstraint } from '../../db/db-errors.ts';
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

/** The message of a unique violation on one of the given constraints, if the error is one. */
export const uniqueMessage = (
  error: unknown,
  messages: Readonly<Record<string, MessageKey>>,
): MessageKey | undefined => {
  const constraint = violatedConstraint(error, [UNIQUE_VIOLATION]);
  if (!constraint) return undefined;
  const key = messages[constraint];
  return key && isMessageKey(key) ? key : undefined;
};
