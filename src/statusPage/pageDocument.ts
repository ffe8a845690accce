// The HTML document of /s/{slug}: a shell with the landmarks, the title when the page is public,
// and links to the one script and one stylesheet. Everything else comes from the public API,
// fetched by the script exactly as a third party would.
import { escapeHtml } from '../shared/escapeHtml.ts';
import type { PageAssets } from './assets.ts';

type PageDocumentOptions = Readonly<{
  slug: string;
  /** null for a private page: its title is not shown before the reader proves the token. */
  title: string | null;
  assets: PageAssets;
  /** Readers can subscribe by email: the header links to the form (its label comes from the caller). */
  subscribe?: Readonly<{ href: string; label: string }>;
}>;

export const SCRIPT_PATH = '/static/page/v1/page.js';
export const STYLE_PATH = '/static/page/v1/page.css';

/** The start of every document of the page, up to its stylesheet; `title` is HTML-escaped already. */
export const documentStart = (title: string, assets: PageAssets): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLE_PATH}?v=${assets.style.version}">
`;

/** Every interpolated value is escaped; the slug is already a safe path segment. */
export const pageDocument = ({ slug, title, assets, subscribe }: PageDocumentOptions): string => {
  const heading = escapeHtml(title ?? slug);
  const feed = `/s/${slug}/feed`;
  const name = title === null ? 'Private status page' : `${heading} status`;
  return `${documentStart(name, assets)}<link rel="alternate" type="application/atom+xml" title="${heading} incidents (Atom)" href="${feed}.atom">
<link rel="alternate" type="application/rss+xml" title="${heading} incidents (RSS)" href="${feed}.rss">
<script src="${SCRIPT_PATH}?v=${assets.script.version}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="wrap"><h1 id="page-title">${heading}</h1><span class="top-tag">${title === null ? 'Private status page' : 'Status'}</span>${subscribe ? `<a class="subscribe-link" href="${escapeHtml(subscribe.href)}">${escapeHtml(subscribe.label)}</a>` : ''}</div></header>
<main id="main" class="wrap" data-slug="${slug}" data-private="${title === null ? 'true' : 'false'}" aria-busy="true">
<p class="loading">Loading the current status…</p>
<noscript><p class="notice">This status page needs JavaScript. Its data is also available from the
<a href="/api/status/${slug}/charts">JSON API</a>.</p></noscript>
</main>
<footer class="foot"><div class="wrap" id="foot"></div></footer>
</body>
</html>
`;
};
