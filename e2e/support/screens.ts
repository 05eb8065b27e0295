/**
 * The languages and window sizes a browser test looks at. Every test that checks a screen in
 * zh-CN and en-US at a desktop's 1440 px and a phone's 390 px runs two of the four: en-US on the
 * phone (the longest words in the narrowest window) and zh-CN on the desktop. `E2E_SCREENS=all`
 * runs all four (before a release, or when a change is about one language's layout). Both
 * languages and both widths are seen in every run.
 */
export type ScreenLanguage = 'zh-CN' | 'en-US';
export interface Screen {
  language: ScreenLanguage;
  width: 1440 | 390;
  viewport: { width: 1440 | 390; height: number };
}

const screen = (language: ScreenLanguage, width: 1440 | 390): Screen => ({
  language,
  width,
  viewport: { width, height: width === 390 ? 844 : 900 },
});

export const SCREENS: readonly Screen[] =
  process.env.E2E_SCREENS === 'all'
    ? [screen('zh-CN', 1440), screen('zh-CN', 390), screen('en-US', 1440), screen('en-US', 390)]
    : [screen('zh-CN', 1440), screen('en-US', 390)];
