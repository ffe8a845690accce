// Every locale's catalogue, for server code (documents, badge, reports, mails). The page script
// bundles only its own locale's (src/statusPage/assets.ts).
import type { Locale } from './locales.ts';
import type { Catalogue } from './messages/en.ts';
import { en } from './messages/en.ts';
import { de } from './messages/de.ts';
import { fr } from './messages/fr.ts';
import { es } from './messages/es.ts';
import { ptBR } from './messages/ptBR.ts';
import { ja } from './messages/ja.ts';
import { translator, type Translator } from './translate.ts';

export const catalogues: Readonly<Record<Locale, Catalogue>> = { en, de, fr, es, 'pt-BR': ptBR, ja };

/** The catalogue module of each locale, for bundling one alone: `messages/<file>.ts` exports `<name>`. */
export const catalogueModules: Readonly<Record<Locale, Readonly<{ file: string; name: string }>>> = {
  en: { file: 'en', name: 'en' },
  de: { file: 'de', name: 'de' },
  fr: { file: 'fr', name: 'fr' },
  es: { file: 'es', name: 'es' },
  'pt-BR': { file: 'ptBR', name: 'ptBR' },
  ja: { file: 'ja', name: 'ja' },
};

const translators = new Map<Locale, Translator>();

/** The locale's translator (made once). */
export const translate = (locale: Locale): Translator => {
  let found = translators.get(locale);
  if (found === undefined) translators.set(locale, (found = translator(locale, catalogues[locale])));
  return found;
};
