import type { Locale } from 'antd/es/locale';
import type { UiLanguage } from './index.ts';
import { withoutPatternQuote } from './pattern-message.ts';

const antdOwnLocale = async (language: UiLanguage): Promise<Locale> => {
  switch (language) {
    case 'zh-CN':
      return (await import('antd/es/locale/zh_CN')).default;
    case 'ko':
      return (await import('antd/es/locale/ko_KR')).default;
    case 'ja':
      return (await import('antd/es/locale/ja_JP')).default;
    case 'de':
      return (await import('antd/es/locale/de_DE')).default;
    case 'cs':
      return (await import('antd/es/locale/cs_CZ')).default;
    case 'it':
      return (await import('antd/es/locale/it_IT')).default;
    case 'fr':
      return (await import('antd/es/locale/fr_FR')).default;
    default:
      return (await import('antd/es/locale/en_US')).default;
  }
};

/** Ant Design's own texts (pagination, pickers, modals) follow the interface language; no message quotes a pattern. */
export const loadAntdLocale = async (language: UiLanguage): Promise<Locale> =>
  withoutPatternQuote(await antdOwnLocale(language), language);
