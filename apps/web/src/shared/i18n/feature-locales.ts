import type { BackendModule, ReadCallback } from 'i18next';

export type Messages = Record<string, string>;

/**
 * Each screen keeps its texts beside it, in `features/<feature>/locales/<language>.json`, and
 * they load with the screen (an i18next namespace named after the feature folder), so the
 * login route downloads none of them and features never edit each other's files.
 */
const files = import.meta.glob<Messages>('../../features/*/locales/*.json', { import: 'default' });

const pathOf = (namespace: string, language: string) => `../../features/${namespace}/locales/${language}.json`;

/** The feature namespaces that have locale files. */
export const FEATURE_NAMESPACES: readonly string[] = [
  ...new Set(Object.keys(files).map((p) => p.split('/')[3] ?? '')),
].filter(Boolean);

export const loadFeatureMessages = async (namespace: string, language: string): Promise<Messages> => {
  const load = files[pathOf(namespace, language)];
  if (!load) throw new Error(`no ${language} texts for ${namespace}`);
  return load();
};

/** i18next backend for the feature namespaces; the shell's own `translation` namespace is bundled. */
export const featureBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language: string, namespace: string, callback: ReadCallback) {
    loadFeatureMessages(namespace, language).then(
      (messages) => callback(null, messages),
      (error: Error) => callback(error, false),
    );
  },
};
