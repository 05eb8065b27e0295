import type { Locale } from 'antd/es/locale';
import type { UiLanguage } from './index.ts';

/**
 * Ant Design's message for a `pattern` rule without its own message quotes the regular expression
 * ("编号与模式不匹配/^[A-Za-z0-9-]{1,32}$/"). Users never see one: this says only that the format is wrong.
 */
export const PATTERN_MISMATCH: Record<UiLanguage, string> = {
  'zh-CN': '${label}格式不正确',
  'en-US': '${label} has an invalid format',
  ko: '${label} 형식이 올바르지 않습니다',
  ja: '${label}の形式が正しくありません',
  de: '${label} hat ein ungültiges Format',
  cs: '${label} má neplatný formát',
  it: '${label} ha un formato non valido',
  fr: '${label} a un format non valide',
};

/** The locale with its pattern message replaced (every other validation message kept). */
export const withoutPatternQuote = (locale: Locale, language: UiLanguage): Locale => {
  const messages = locale.Form?.defaultValidateMessages ?? {};
  return {
    ...locale,
    Form: {
      ...locale.Form,
      defaultValidateMessages: { ...messages, pattern: { mismatch: PATTERN_MISMATCH[language] } },
    },
  };
};
