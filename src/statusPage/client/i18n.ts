// The page's language: set once by the locale's entry (entries/<locale>.ts, which bundles only its
// own catalogue) before anything is drawn; every text of the page goes through `t` or `tn`.
import type { Locale } from '../../../projections/locale/locales.ts';
import type { Catalogue, MessageKey } from '../../../projections/locale/messages/en.ts';
import { formatsFor, type Formats } from '../../../projections/locale/format.ts';
import { translator, type Params, type Translator } from '../../../projections/locale/translate.ts';

let active: Readonly<{ translator: Translator; formats: Formats }> | null = null;

export const useLocale = (locale: Locale, catalogue: Catalogue): void => {
  active = { translator: translator(locale, catalogue), formats: formatsFor(locale) };
};

const current = () => {
  if (active === null) throw new Error('the page script started without a locale');
  return active;
};

export const pageLocale = (): Locale => current().translator.locale;

/** A message as text. */
export const t = (key: MessageKey, params?: Params): string => current().translator.t(key, params);

/** A message as pieces for `h(…)`, its placeholders filled with nodes or texts. */
export const tn = (key: MessageKey, params: Params<Node>): (string | Node)[] =>
  current().translator.parts(key, params);

export const formats = (): Formats => current().formats;
