import type { z } from 'zod';
import {
  fieldLabel,
  isMessageKey,
  translate,
  type Language,
  type MessageKey,
  type MessageParams,
} from './messages/index.ts';

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown => {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
};

const expectedKey = (expected: string): MessageKey | undefined => {
  const key = `expected.${expected}`;
  return isMessageKey(key) ? key : undefined;
};

export interface IssueMessage {
  key: MessageKey;
  params: MessageParams;
  field: string;
}

/** Turns the first zod issue into a message key naming the field, e.g. "userName is required". */
export const describeIssue = (lang: Language, issue: z.core.$ZodIssue, input: unknown): IssueMessage => {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  // An item of a list (path …, 'residentIds', 3) is named by its list.
  const named = [...issue.path].reverse().find((p) => typeof p === 'string');
  const label = named === undefined ? field : fieldLabel(lang, named);
  const params: MessageParams = { field: label };
  const value = valueAt(input, issue.path);
  if (isMessageKey(issue.message)) return { key: issue.message, params, field };
  const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  if (blank) {
    if (issue.code === 'invalid_type' || issue.code === 'too_small') {
      return { key: 'validation.required', params, field };
    }
  }
  switch (issue.code) {
    case 'invalid_type': {
      const exp = expectedKey(issue.expected);
      return {
        key: 'validation.type',
        params: { ...params, expected: exp ? translate(lang, exp) : issue.expected },
        field,
      };
    }
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? { key: 'validation.minLength', params: { ...params, min: Number(issue.minimum) }, field }
        : { key: 'validation.min', params: { ...params, min: Number(issue.minimum) }, field };
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? { key: 'validation.maxLength', params: { ...params, max: Number(issue.maximum) }, field }
        : { key: 'validation.max', params: { ...params, max: Number(issue.maximum) }, field };
    case 'invalid_format':
      return { key: 'validation.format', params, field };
    case 'invalid_value':
      return { key: 'validation.oneOf', params: { ...params, options: issue.values.map(String).join(', ') }, field };
    default:
      return { key: 'validation.invalid', params, field };
  }
};
