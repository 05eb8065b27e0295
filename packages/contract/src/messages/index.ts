import { cs } from './cs.ts';
import { de } from './de.ts';
import { enUS, type MessageKey } from './en-US.ts';
import { fr } from './fr.ts';
import { itIT } from './it.ts';
import { ja } from './ja.ts';
import { ko } from './ko.ts';
import { zhCN } from './zh-CN.ts';

export type { MessageKey };

/** The languages of the console (spec: Chinese, English, Korean, Japanese, German, Czech, Italian, French). */
export const LANGUAGES = ['zh-CN', 'en-US', 'ko', 'ja', 'de', 'cs', 'it', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

const catalogues: Record<Language, Record<MessageKey, string>> = {
  'zh-CN': zhCN,
  'en-US': enUS,
  ko,
  ja,
  de,
  cs,
  it: itIT,
  fr,
};

export type MessageParams = Record<string, string | number>;

export const isMessageKey = (key: string): key is MessageKey => key in enUS;

/** Picks the first supported language from an Accept-Language header (or a stored language code). */
export const pickLanguage = (header: string | undefined | null): Language => {
  if (!header) return DEFAULT_LANGUAGE;
  const wanted = header
    .split(',')
    .map((part) => {
      const [tag = '', q] = part.trim().split(';q=');
      return { tag: tag.toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((w) => w.tag && !Number.isNaN(w.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of wanted) {
    const exact = LANGUAGES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const base = tag.split('-')[0];
    const partial = LANGUAGES.find((l) => l.toLowerCase().split('-')[0] === base);
    if (partial) return partial;
  }
  return DEFAULT_LANGUAGE;
};

export const translate = (lang: Language, key: MessageKey, params: MessageParams = {}): string => {
  const template = catalogues[lang][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
};

/** A field's label in the language, or its wire name when the catalogue has none. */
export const fieldLabel = (lang: Language, field: string): string => {
  const key = `field.${field}`;
  return isMessageKey(key) ? translate(lang, key) : field;
};

export const messageCatalogue = (lang: Language): Readonly<Record<MessageKey, string>> => catalogues[lang];
