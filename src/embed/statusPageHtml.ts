// The tiny demo status page at /s/{slug}: the default page_url, and a live check that the widget and
// badge snippets work when pasted into a page.
import { escapeHtml } from '../shared/escapeHtml.ts';

type StatusPageOptions = {
  slug: string;
  title: string;
  baseUrl: string;
  /** YYYY-MM used in the month-filtered links; defaults to the current UTC month. */
  month?: string;
};

const link = (href: string, text: string): string =>
  `<li><a href="${escapeHtml(href)}"><code>${escapeHtml(text)}</code></a></li>`;

/** Full HTML5 document for the demo status page of one slug; every interpolated value is escaped. */
export const statusPageHtml = (opts: StatusPageOptions): string => {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const slug = encodeURIComponent(opts.slug); // for paths and query strings; escapeHtml still applies after
  const month = opts.month ?? new Date().toISOString().slice(0, 7);
  const api = (path: string): string => `${base}${path}`;
  const endpoints = [
    `/api/status-pages/${slug}/incidents`,
    `/api/status-pages/${slug}/incidents/filter?month=${month}`,
    `/api/status-pages/${slug}/incidents/daily-counts?month=${month}`,
    `/api/status-pages/${slug}/maintenances`,
    `/api/status-pages/${slug}/maintenances/filter?month=${month}`,
    `/api/status-pages/${slug}/maintenances/daily-counts?month=${month}`,
    `/api/status/${slug}/charts`,
    `/api/status-page/${slug}/minute-data`,
    `/api/embed/status?slug=${slug}&inc=1&rtm=60&upd=30`,
    `/api/embed/markdown?slug=${slug}`,
  ];
  const title = escapeHtml(opts.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
code { font-size: 0.9em; }
</style>
</head>
<body>
<h1>${title}</h1>
<p>This is the demo status page of this service. It shows the embeddable widget and badge exactly as
they appear when pasted into another site, and links to the public JSON API of this page.</p>
<h2>Widget</h2>
<script src="${escapeHtml(api('/static/embed/v1/status.js'))}" data-slug="${escapeHtml(opts.slug)}" data-theme="auto" data-show-incidents="true" data-rtm="60" data-upd="30" async></script>
<h2>Badge</h2>
<p><img alt="Status" src="${escapeHtml(api(`/badge/${slug}.svg`))}"></p>
<h2>JSON API</h2>
<ul>
${endpoints.map((path) => link(api(path), path)).join('\n')}
<li><code>${escapeHtml(`/api/status-pages/${slug}/monitors/{monitorID}/availability`)}</code>: the monitor ids are listed in the charts response.</li>
</ul>
</body>
</html>
`;
};
