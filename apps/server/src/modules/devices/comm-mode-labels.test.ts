import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEVICE_COMM_MODES, LANGUAGES, translate } from '@vigil/contract';
import { describe, expect, it } from 'vitest';

const LOCALES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../web/src/features/devices/locales',
);
const screenTexts = (lang: string): Record<string, string> | undefined => {
  const file = path.join(LOCALES, `${lang}.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : undefined;
};

/**
 * Imports accept the communication-mode labels the device screens show (issue 8, point 13): the
 * server reads them from the contract's messages, so the console's labels must be the same words.
 */
describe('communication-mode labels', () => {
  it('are the same on the screens as in the contract, in every language', () => {
    for (const lang of LANGUAGES) {
      const locale = screenTexts(lang);
      expect(locale, lang).toBeDefined();
      for (const mode of DEVICE_COMM_MODES) {
        expect(locale?.[`commMode.${mode}`], `${lang} ${mode}`).toBe(translate(lang, `commMode.${mode}`));
      }
    }
  });

  it('never name two modes with one word across languages', () => {
    const squash = (text: string) => text.replace(/[\s_-]+/g, '').toLowerCase();
    const meaning = new Map<string, string>();
    for (const mode of DEVICE_COMM_MODES) {
      for (const word of [mode, ...LANGUAGES.map((lang) => translate(lang, `commMode.${mode}`))]) {
        expect(meaning.get(squash(word)) ?? mode, word).toBe(mode);
        meaning.set(squash(word), mode);
      }
    }
  });
});
