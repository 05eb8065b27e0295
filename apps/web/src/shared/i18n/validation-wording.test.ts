import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UI_LANGUAGES } from './index.ts';

/**
 * Issue 29, point 14: the same rule read differently from form to form ("Required", "Enter a
 * name.", "Please enter the name"; "At most 64 characters" with and without a full stop, or antd's
 * own sentence; three wordings of the phone rule and of the control-character rule). Each is now
 * one shell text (common.required, rule.maxLength, rule.controlChars, rule.phone), given by the
 * rule builders of shared/ui/form-rules.ts.
 */

const features = import.meta.glob<Record<string, string>>('../../features/*/locales/*.json', {
  eager: true,
  import: 'default',
});
const shell = import.meta.glob<Record<string, string>>('./locales/*.json', { eager: true, import: 'default' });

/** Required-field messages that say more than "required": what must be chosen, and how many. */
const SPECIFIC_REQUIRED = ['rule.namesRequired', 'rule.notifyRequired'];
/** Texts about other rules that mention the same things. */
const OTHER_RULES = [
  'rule.nameChars', // place names: no commas and no control characters, one rule
  'overseas.field.phoneInvalid', // the overseas form: a country code and a number, checked together
];

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sourceFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });

describe('validation messages (issue 29, point 14)', () => {
  it.each([...UI_LANGUAGES])('%s has each shared rule in the shell only', (language) => {
    const own = shell[`./locales/${language}.json`] ?? {};
    for (const key of ['common.required', 'rule.maxLength', 'rule.controlChars', 'rule.phone']) {
      expect(own[key], key).toBeTruthy();
    }
    const shared = new Set(['common.required', 'rule.maxLength', 'rule.controlChars', 'rule.phone'].map((k) => own[k]));
    const copies = Object.entries(features)
      .filter(([file]) => file.endsWith(`/${language}.json`))
      .flatMap(([file, texts]) =>
        Object.entries(texts)
          .filter(([key, text]) => shared.has(text) || (/required$/i.test(key) && !SPECIFIC_REQUIRED.includes(key)))
          .map(([key]) => `${file} ${key}`),
      );
    expect(copies).toEqual([]);
  });

  it('no screen words a rule its own way in English, the language the texts are written in first', () => {
    const wording = [/\bcontrol characters\b/i, /\bvalid mobile number\b/i, /^at most \{\{\w+\}\} characters\.?$/i];
    const own = Object.entries(features)
      .filter(([file]) => file.endsWith('/en-US.json'))
      .flatMap(([file, texts]) =>
        Object.entries(texts)
          .filter(([key, text]) => !OTHER_RULES.includes(key) && wording.some((w) => w.test(text)))
          .map(([key, text]) => `${file} ${key}: ${text}`),
      );
    expect(own).toEqual([]);
  });

  it('gives every length limit of a form its message: never antd’s own sentence', () => {
    // A rule object of its own in a rules list (first, or after "}," or "),"), not a t() parameter.
    const bare = /rules=\{\[(?:[^\]]*?(?:\},|\),))?\s*\{\s*max:\s*[\w.]+\s*\}/s;
    const files = [...sourceFiles(path.join(SRC, 'features')), ...sourceFiles(path.join(SRC, 'layout'))];
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => bare.test(fs.readFileSync(file, 'utf8'))).map((f) => path.relative(SRC, f))).toEqual(
      [],
    );
  });
});
