import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { FEATURE_NAMESPACES, featureBackend } from '../shared/i18n/feature-locales.ts';
import { i18nOptions } from '../shared/i18n/index.ts';
import en from '../shared/i18n/locales/en-US.json';

/** An i18next instance with the English catalogue and every feature's texts, as screens see it at run time. */
export const englishI18n = async (): Promise<I18n> => {
  const i18n = i18next.createInstance();
  await i18n
    .use(featureBackend)
    .use(initReactI18next)
    .init(i18nOptions('en-US', { 'en-US': { translation: en } }));
  await i18n.loadNamespaces([...FEATURE_NAMESPACES]);
  return i18n;
};

/** A screen inside the providers the app gives it: query client (no retries), i18n, antd App, router at `path`. */
export const inTestShell = (i18n: I18n, node: ReactNode, path = '/') => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <I18nextProvider i18n={i18n}>
      <AntApp>
        <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
      </AntApp>
    </I18nextProvider>
  </QueryClientProvider>
);
