import { LANGUAGES, type Language } from '@vigil/contract';
import { cs } from './cs.ts';
import { de } from './de.ts';
import { enUS, type ReportTextKey } from './en-US.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { ja } from './ja.ts';
import { ko } from './ko.ts';
import { zhCN } from './zh-CN.ts';

export type { ReportTextKey };

export const REPORT_TEXTS: Readonly<Record<Language, Readonly<Record<ReportTextKey, string>>>> = {
  'zh-CN': zhCN,
  'en-US': enUS,
  ko,
  ja,
  de,
  cs,
  it,
  fr,
};

export type TextParams = Record<string, string | number>;
/** A language's texts: `t('night.of', { date })`. */
export type Translate = (key: ReportTextKey, params?: TextParams) => string;

/** The {placeholders} of a template, for checking that every language fills the same ones. */
export const placeholdersOf = (template: string): string[] =>
  [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();

export function reportTexts(language: Language): Translate {
  const texts = REPORT_TEXTS[language];
  return (key, params = {}) =>
    texts[key].replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      return value === undefined ? whole : String(value);
    });
}

/** The language itself, or a RangeError: a caller's unchecked string must not print an empty report. */
export function checkedLanguage(language: Language): Language {
  if (!LANGUAGES.includes(language)) throw new RangeError(`No report texts for language "${String(language)}"`);
  return language;
}
