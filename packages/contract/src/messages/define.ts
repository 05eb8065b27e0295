/** A domain's server messages in both languages; the compiler demands the same keys in each. */
export const defineMessages = <const K extends string>(en: Record<K, string>, zh: NoInfer<Record<K, string>>) => ({
  en,
  zh,
});
