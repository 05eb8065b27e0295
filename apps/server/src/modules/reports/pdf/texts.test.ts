import { LANGUAGES } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { placeholdersOf, REPORT_TEXTS, reportTexts } from './texts/index.ts';

describe('report texts', () => {
  const english = REPORT_TEXTS['en-US'];

  it('fill the same placeholders in every language', () => {
    for (const language of LANGUAGES) {
      for (const [key, template] of Object.entries(REPORT_TEXTS[language])) {
        expect({ language, key, placeholders: placeholdersOf(template) }).toEqual({
          language,
          key,
          placeholders: placeholdersOf(english[key as keyof typeof english]),
        });
      }
    }
  });

  it('are written out in every language (no blank text, no English left in the CJK ones)', () => {
    for (const language of LANGUAGES) {
      for (const [key, text] of Object.entries(REPORT_TEXTS[language]))
        expect({ key, text: text.trim() }).not.toEqual({ key, text: '' });
    }
    for (const language of ['zh-CN', 'ja', 'ko'] as const) {
      const english = Object.entries(REPORT_TEXTS[language]).filter(([, text]) =>
        /\b(the|of|and|night|sleep|heart)\b/i.test(text),
      );
      expect(english).toEqual([]);
    }
  });

  it('substitute parameters and leave unknown ones visible', () => {
    expect(reportTexts('de')('doc.page', { page: 2, pages: 3 })).toBe('Seite 2 von 3');
    expect(reportTexts('zh-CN')('night.of', { date: '2026年3月2日' })).toBe('睡眠日期：2026年3月2日');
    expect(reportTexts('fr')('doc.page', { page: 1 })).toBe('Page 1 sur {pages}');
  });
});
