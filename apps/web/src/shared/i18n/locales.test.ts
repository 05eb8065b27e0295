import { CONSOLE_ROUTES, ROLES } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { UI_LANGUAGES } from './index.ts';
import cs from './locales/cs.json';
import de from './locales/de.json';
import enUS from './locales/en-US.json';
import fr from './locales/fr.json';
import it_ from './locales/it.json';
import ja from './locales/ja.json';
import ko from './locales/ko.json';
import zhCN from './locales/zh-CN.json';

const LANGUAGES = ['zh-CN', 'en-US', 'ko', 'ja', 'de', 'cs', 'it', 'fr'] as const;
type Messages = Record<string, unknown>;
const FILES: Record<(typeof LANGUAGES)[number], Messages> = {
  'zh-CN': zhCN,
  'en-US': enUS,
  ko,
  ja,
  de,
  cs,
  it: it_,
  fr,
};
const load = (lang: (typeof LANGUAGES)[number]): Messages => FILES[lang];
const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

/** The rules every language file obeys against its en-US counterpart. */
const checkLanguage = (reference: Messages, messages: Messages) => {
  const keys = Object.keys(reference);
  it('has every en-US key with a non-empty string', () => {
    const missing = keys.filter((k) => typeof messages[k] !== 'string' || (messages[k] as string).trim() === '');
    expect(missing).toEqual([]);
  });
  it('has no extra keys', () => {
    expect(Object.keys(messages).filter((k) => !(k in reference))).toEqual([]);
  });
  it('uses the same {{placeholders}} as en-US', () => {
    const differing = keys.filter((k) => {
      const value = messages[k];
      if (typeof value !== 'string') return false;
      return placeholders(value).join(',') !== placeholders(reference[k] as string).join(',');
    });
    expect(differing).toEqual([]);
  });
};

const en = load('en-US');
const enKeys = Object.keys(en);

describe('locale files', () => {
  it('the app offers exactly these eight languages', () => {
    expect([...UI_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
  });

  it('en-US is flat, non-empty strings', () => {
    expect(enKeys.length).toBeGreaterThan(0);
    for (const key of enKeys) {
      const value = en[key];
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
    }
  });

  for (const lang of LANGUAGES) {
    describe(lang, () => checkLanguage(en, load(lang)));
  }

  // Every screen's own namespace (features/<feature>/locales/<language>.json) obeys the same rules.
  const featureFiles = import.meta.glob<Messages>('../../features/*/locales/*.json', {
    import: 'default',
    eager: true,
  });
  const features = new Map<string, Map<string, Messages>>();
  for (const [path, messages] of Object.entries(featureFiles)) {
    const [, , , feature = '', , file = ''] = path.split('/');
    const byLanguage = features.get(feature) ?? new Map<string, Messages>();
    byLanguage.set(file.replace(/\.json$/, ''), messages);
    features.set(feature, byLanguage);
  }
  for (const [feature, byLanguage] of features) {
    describe(`feature ${feature}`, () => {
      it('has a file for each of the eight languages and no other', () => {
        expect([...byLanguage.keys()].sort()).toEqual([...LANGUAGES].sort());
      });
      const featureEn = byLanguage.get('en-US') ?? {};
      it('en-US is flat, non-empty strings', () => {
        expect(Object.keys(featureEn).length).toBeGreaterThan(0);
        for (const [key, value] of Object.entries(featureEn)) {
          expect(typeof value, key).toBe('string');
          expect((value as string).trim(), key).not.toBe('');
        }
      });
      for (const lang of LANGUAGES) describe(lang, () => checkLanguage(featureEn, byLanguage.get(lang) ?? {}));
    });
  }

  it('every console route has a menu.<name> key', () => {
    const missing = CONSOLE_ROUTES.map((r) => `menu.${r.name}`).filter((k) => !(k in en));
    expect(missing).toEqual([]);
  });

  it('every role has a role.<ROLE> key', () => {
    const missing = ROLES.map((r) => `role.${r}`).filter((k) => !(k in en));
    expect(missing).toEqual([]);
  });
});
