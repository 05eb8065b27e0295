import { describe, expect, it } from 'vitest';
import { dialogLanguages, UI_LANGUAGES } from './index.ts';

// Issue 8, point 9: the navbar dialog never hides the language the console is shown in, and never
// leads into a language the user cannot leave again.
describe('dialogLanguages', () => {
  it('without the abroad flag offers Chinese and English', () => {
    expect(dialogLanguages(false, 'en-US')).toEqual(['zh-CN', 'en-US']);
    // After switching to Chinese, English is still there to switch back.
    expect(dialogLanguages(false, 'zh-CN')).toEqual(['zh-CN', 'en-US']);
  });

  it('without the abroad flag adds the current language when it is another one', () => {
    expect(dialogLanguages(false, 'ja')).toEqual(['zh-CN', 'en-US', 'ja']);
    expect(dialogLanguages(false, 'fr')).toEqual(['zh-CN', 'en-US', 'fr']);
  });

  it('with the abroad flag offers every language the console ships, whatever the current one', () => {
    for (const current of UI_LANGUAGES) expect(dialogLanguages(true, current)).toEqual([...UI_LANGUAGES]);
    expect(dialogLanguages(true, 'fr')).toHaveLength(8);
  });

  it('always includes the current language, once', () => {
    for (const abroad of [false, true]) {
      for (const current of UI_LANGUAGES) {
        const offered = dialogLanguages(abroad, current);
        expect(offered.filter((l) => l === current)).toEqual([current]);
        expect(new Set(offered).size).toBe(offered.length);
      }
    }
  });
});
