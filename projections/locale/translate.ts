// Messages by key with `{name}` placeholders; a message that counts something has one text per
// plural category (Intl.PluralRules) and is chosen by its `count`.
import type { Locale } from './locales.ts';
import type { Catalogue, Message, MessageKey } from './messages/en.ts';

export type Params<T = never> = Readonly<Record<string, string | number | T>>;

const PLACEHOLDER = /\{(\w+)\}/g;

export type Translator = Readonly<{
  locale: Locale;
  /** The message as text; numbers are formatted for the locale. */
  t: (key: MessageKey, params?: Params) => string;
  /** The message in pieces, each placeholder replaced by its value as is (e.g. a DOM node). */
  parts: <T>(key: MessageKey, params: Params<T>) => (string | T)[];
}>;

export const translator = (locale: Locale, catalogue: Catalogue): Translator => {
  const plurals = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  const text = (message: Message, params: Params<unknown>): string => {
    if (typeof message === 'string') return message;
    const count = Number(params['count'] ?? 0);
    return message[plurals.select(count)] ?? message.other;
  };
  const value = <T>(params: Params<T>, name: string): string | T => {
    const found = params[name];
    if (found === undefined) return `{${name}}`;
    return typeof found === 'number' ? numbers.format(found) : found;
  };
  const parts = <T>(key: MessageKey, params: Params<T>): (string | T)[] => {
    const pieces = text(catalogue[key], params).split(PLACEHOLDER);
    // split with a capture group: even indexes are literal text, odd ones placeholder names
    return pieces
      .map((piece, i) => (i % 2 === 0 ? piece : value(params, piece)))
      .filter((piece) => piece !== '');
  };
  return {
    locale,
    t: (key, params = {}) => parts<string>(key, params).join(''),
    parts,
  };
};
