import i18next, { type InitOptions, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { StorageKey, storage } from '../storage.ts';
import { featureBackend } from './feature-locales.ts';
import enUS from './locales/en-US.json';

export const UI_LANGUAGES = ['zh-CN', 'en-US', 'ko', 'ja', 'de', 'cs', 'it', 'fr'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/**
 * Languages the navbar dialog offers (issue 8, point 9). With the abroad flag, every language we
 * ship. Without it, Chinese and English, and the current language when it is neither (chosen on
 * the login page): the current one is always listed, and whoever tried Chinese can come back to
 * English, so no choice in the dialog is a trap.
 */
export const dialogLanguages = (abroad: boolean, current: UiLanguage): UiLanguage[] => {
  if (abroad) return [...UI_LANGUAGES];
  const offered: UiLanguage[] = ['zh-CN', 'en-US'];
  return offered.includes(current) ? offered : [...offered, current];
};

export const normaliseLanguage = (value: string | null | undefined): UiLanguage => {
  if (!value) return 'zh-CN';
  const lower = value.toLowerCase();
  return (
    UI_LANGUAGES.find((l) => l.toLowerCase() === lower) ??
    UI_LANGUAGES.find((l) => l.toLowerCase().split('-')[0] === lower.split('-')[0]) ??
    'zh-CN'
  );
};

export const storedLanguage = (): UiLanguage => normaliseLanguage(storage.get(StorageKey.language));

type Messages = Record<string, string>;

/**
 * Shared by the app and the screen tests. Screens use `useTranslation('<feature>')`; a key not
 * in the feature's namespace (common.save …) is looked up in the shell's `translation`.
 */
export const i18nOptions = (language: UiLanguage, resources: Resource): InitOptions => ({
  lng: language,
  fallbackLng: 'en-US',
  ns: ['translation'],
  defaultNS: 'translation',
  fallbackNS: 'translation',
  partialBundledLanguages: true,
  resources,
  interpolation: { escapeValue: false },
  returnNull: false,
});
/** Each language is its own chunk; English is bundled as the fallback. */
const loaders: Record<UiLanguage, () => Promise<Messages>> = {
  'zh-CN': () => import('./locales/zh-CN.json').then((m) => m.default),
  'en-US': async () => enUS,
  ko: () => import('./locales/ko.json').then((m) => m.default),
  ja: () => import('./locales/ja.json').then((m) => m.default),
  de: () => import('./locales/de.json').then((m) => m.default),
  cs: () => import('./locales/cs.json').then((m) => m.default),
  it: () => import('./locales/it.json').then((m) => m.default),
  fr: () => import('./locales/fr.json').then((m) => m.default),
};

export const initI18n = async (language: UiLanguage = storedLanguage()) => {
  const messages = await loaders[language]();
  await i18next
    .use(featureBackend)
    .use(initReactI18next)
    .init(i18nOptions(language, { [language]: { translation: messages }, 'en-US': { translation: enUS } }));
  document.documentElement.lang = language;
  return i18next;
};

/** Stores the language and reloads, as the spec's language dialog does. */
export const switchLanguage = (language: UiLanguage) => {
  storage.set(StorageKey.language, language);
  window.location.reload();
};

export { i18next };
