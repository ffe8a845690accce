// The HTML document of /s/{slug}: a shell with the landmarks, the title when the page is public,
// the language links, and links to the one script (of the document's language) and one
// stylesheet. Everything else comes from the public API, fetched by the script exactly as a third
// party would.
import { LANGUAGE_NAMES, LOCALES, type Locale } from '../../projections/locale/locales.ts';
import { translate } from '../../projections/locale/catalogues.ts';
import { escapeHtml } from '../shared/escapeHtml.ts';
import type { PageAssets } from './assets.ts';

type PageDocumentOptions = Readonly<{
  slug: string;
  /** null for a private page: its title is not shown before the reader proves the token. */
  title: string | null;
  locale: Locale;
  assets: PageAssets;
  /** Readers can subscribe by email: the header links to the form. */
  subscribe?: Readonly<{ href: string }>;
}>;

export const SCRIPT_PATH = '/static/page/v1/page.js';
export const STYLE_PATH = '/static/page/v1/page.css';

/** The script of one language: `/static/page/v1/page.de.js`. */
export const scriptPath = (locale: Locale): string => `/static/page/v1/page.${locale}.js`;

/** The start of every document of the page, up to its stylesheet; `title` is HTML-escaped already. */
export const documentStart = (title: string, locale: Locale, assets: PageAssets): string => `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLE_PATH}?v=${assets.style.version}">
`;

/**
 * Links to the page in every language, each named in its own language (and marked so, for screen
 * readers), the current one marked as such. `data-suggest` is what the script offers a reader
 * whose browser prefers that language.
 */
export const languageLinks = (
  locale: Locale,
  hrefOf: (other: Locale) => string = (other) => `?lang=${other}`,
): string => {
  const links = LOCALES.map((other) => {
    const current = other === locale ? ' aria-current="true"' : '';
    const suggest = escapeHtml(translate(other).t('doc.suggest'));
    return `<li><a href="${escapeHtml(hrefOf(other))}" hreflang="${other}" lang="${other}" data-suggest="${suggest}"${current}>${escapeHtml(LANGUAGE_NAMES[other])}</a></li>`;
  });
  return `<nav class="langs" aria-label="${escapeHtml(translate(locale).t('doc.languages'))}"><ul>${links.join('')}</ul></nav>`;
};

/** Every interpolated value is escaped; the slug is already a safe path segment. */
export const pageDocument = ({ slug, title, locale, assets, subscribe }: PageDocumentOptions): string => {
  const { t } = translate(locale);
  const heading = escapeHtml(title ?? slug);
  const feed = `/s/${slug}/feed`;
  const name =
    title === null ? escapeHtml(t('doc.privateTitle')) : escapeHtml(t('doc.title', { title: title }));
  const tag = escapeHtml(title === null ? t('doc.privateTitle') : t('doc.tag'));
  const script = assets.scripts[locale];
  const jsonApi = `<a href="/api/status/${slug}/charts">${escapeHtml(t('doc.jsonApi'))}</a>`;
  const noscript = escapeHtml(t('doc.noscript')).replace('{link}', jsonApi);
  return `${documentStart(name, locale, assets)}<link rel="alternate" type="application/atom+xml" title="${escapeHtml(t('doc.feedAtom', { title: title ?? slug }))}" href="${feed}.atom">
<link rel="alternate" type="application/rss+xml" title="${escapeHtml(t('doc.feedRss', { title: title ?? slug }))}" href="${feed}.rss">
<script src="${scriptPath(locale)}?v=${script.version}" defer></script>
</head>
<body>
<a class="skip" href="#main">${escapeHtml(t('doc.skip'))}</a>
<header class="top"><div class="wrap"><h1 id="page-title">${heading}</h1><span class="top-tag">${tag}</span>${subscribe ? `<a class="subscribe-link" href="${escapeHtml(subscribe.href)}">${escapeHtml(t('doc.subscribe'))}</a>` : ''}</div></header>
<main id="main" class="wrap" data-slug="${slug}" data-private="${title === null ? 'true' : 'false'}" aria-busy="true">
<p class="loading">${escapeHtml(t('doc.loading'))}</p>
<noscript><p class="notice">${noscript}</p></noscript>
</main>
<footer class="foot"><div class="wrap" id="foot"></div><div class="wrap">${languageLinks(locale)}</div></footer>
</body>
</html>
`;
};
