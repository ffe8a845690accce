// The language a subscription page speaks: the one `?lang=` names (docs/status-page.md,
// "Languages"), else the page's own. A language the reader chose stays on the links and forms
// onwards, as on the status page; the mails always speak the page's own.
import type { Request } from 'express';
import type { Locale } from '../../../projections/locale/locales.ts';
import { requestedLocale } from '../../locale/langParam.ts';
import type { SubscriptionPage } from './subscriptionPage.ts';

export type PageHead = Readonly<{
  slug: string;
  title: string;
  locale: Locale;
  /** The language the reader's URL named, carried onwards; null when it named none. */
  lang: Locale | null;
}>;

/** The head of a page shown for this request; null when `?lang=` is not a supported tag. */
export const pageHead = (
  req: Request,
  page: Pick<SubscriptionPage, 'slug' | 'title' | 'locale'>,
): PageHead | null => {
  const locale = requestedLocale(req, page.locale);
  if (locale === null) return null;
  return {
    slug: page.slug,
    title: page.title,
    locale,
    lang: req.query['lang'] === undefined ? null : locale,
  };
};

/**
 * The same request's URL in another language, for the 400 page's links: the path and every
 * parameter kept (a token), `lang` replaced. A POST's answer links to the sign-up form instead.
 */
export const sameInLang =
  (req: Request, slug: string) =>
  (other: Locale): string => {
    if (req.method !== 'GET') return `/s/${slug}/subscribe?lang=${other}`;
    const url = new URL(req.originalUrl, 'http://origin.invalid');
    url.searchParams.set('lang', other);
    return `${url.pathname}${url.search}`;
  };

/** A link or form action on this origin, with the reader's chosen language when there is one. */
export const withLang = (href: string, head: PageHead): string =>
  head.lang === null ? href : `${href}${href.includes('?') ? '&' : '?'}lang=${encodeURIComponent(head.lang)}`;
