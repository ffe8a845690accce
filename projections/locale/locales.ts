// The languages the product speaks (docs/status-page.md, "Languages"): BCP 47 tags, each with its
// name in its own language for the switcher. Pure: the page script, the server and mails share it.

export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language named in itself, as a reader looks for it in a list. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
};

/** The supported tag a value names, compared case-insensitively as BCP 47 says; null otherwise. */
export const parseLocale = (value: string): Locale | null =>
  LOCALES.find((locale) => locale.toLowerCase() === value.toLowerCase()) ?? null;

/**
 * The supported locale closest to a browser's preferences (`navigator.languages`, most preferred
 * first): an exact tag, else the same language (`de-AT` → `de`, `pt` → `pt-BR`); null if none.
 */
export const preferredLocale = (wanted: readonly string[]): Locale | null => {
  for (const tag of wanted) {
    const exact = parseLocale(tag);
    if (exact !== null) return exact;
    const language = tag.split('-')[0]?.toLowerCase() ?? '';
    const same = LOCALES.find((locale) => locale.split('-')[0] === language);
    if (same !== undefined) return same;
  }
  return null;
};
