import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calls } from './catalogue.ts';
import { LANGUAGES, translate } from './messages/index.ts';
import { describeIssue } from './validation.ts';

/** What a regular expression looks like inside a sentence: anchors, classes, escapes, repeat counts. */
const REGEX_LIKE = /\/\^|\$\/|\[[^\]\s]*-[^\]\s]*\]|\\[dDwWsS]|\{\d+,\d*\}|\(\?[:=!]/;

/** Values that break some rule of almost every field: wrong types, bad formats, sizes out of range. */
const BAD_VALUES: unknown[] = [
  'not valid at all ~!@#$%^&*() 中文',
  '',
  ' ',
  'x'.repeat(5000),
  -1,
  1.5,
  1e12,
  true,
  {},
  [],
  ['x'.repeat(300)],
  null,
];

/** Every message a user can get for a refused field of any call, in every language. */
const fieldMessages = (): { call: string; field: string; text: string }[] => {
  const out: { call: string; field: string; text: string }[] = [];
  for (const [name, call] of Object.entries(calls)) {
    const schema = call.request;
    const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>) : { body: undefined };
    for (const field of Object.keys(shape)) {
      for (const value of BAD_VALUES) {
        const input = field === 'body' ? value : { [field]: value };
        const parsed = schema.safeParse(input);
        if (parsed.success) continue;
        for (const issue of parsed.error.issues) {
          for (const lang of LANGUAGES) {
            const described = describeIssue(lang, issue, input);
            out.push({ call: name, field: described.field, text: translate(lang, described.key, described.params) });
          }
        }
      }
    }
  }
  return out;
};

describe('validation messages', () => {
  const messages = fieldMessages();

  it('cover every call (the sweep really refuses fields)', () => {
    expect(new Set(messages.map((m) => m.call)).size).toBeGreaterThan(Object.keys(calls).length / 2);
    expect(messages.length).toBeGreaterThan(1000);
  });

  it('never show a regular expression, in any language', () => {
    const quoting = messages.filter((m) => REGEX_LIKE.test(m.text));
    expect(quoting.slice(0, 5)).toEqual([]);
  });

  it('the regex detector itself catches what antd used to show', () => {
    expect(REGEX_LIKE.test('编号与模式不匹配/^[A-Za-z0-9-]{1,32}$/')).toBe(true);
    expect(REGEX_LIKE.test('Number does not match the pattern ^[A-Za-z0-9-]{1,32}$')).toBe(true);
    expect(REGEX_LIKE.test('Number must be 1 to 32 letters, digits or hyphens.')).toBe(false);
  });
});
