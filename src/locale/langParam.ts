// The `lang` query parameter of the human-readable answers (status page, SLA report, badge): absent,
// the page's own language; otherwise one supported tag, spelled exactly as listed (`pt-BR`), so
// each language has one URL and one edge object. Anything else is refused (400), never guessed.
import type { Request } from 'express';
import { LOCALES, type Locale } from '../../projections/locale/locales.ts';

/** The language asked for, `fallback` when none is, null when the parameter is not a supported tag. */
export const requestedLocale = (req: Request, fallback: Locale): Locale | null => {
  const value: unknown = req.query['lang'];
  if (value === undefined) return fallback;
  return LOCALES.find((locale) => locale === value) ?? null;
};
