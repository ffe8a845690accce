// The surrogate keys (Fastly `Surrogate-Key`, Varnish xkey, Cloudflare `Cache-Tag`) answers carry
// and purges name. A slug is [a-z0-9-] (PageSlug), so it goes into a key as stored.
// - `page-{slug}`: every answer about the page (purged by incident, maintenance and page events);
// - `page-{slug}-checks`: the answers a check can change (charts, minute-data, availability, embed
//   status and snippets, the badge, the Statuspage-compatible documents), purged alone when only
//   checks and monitors changed, so lists, feeds and the HTML page stay cached at the edge;
// - `static`: page-independent assets (the widget script, the status page's script and style).
export const STATIC_KEY = 'static';

export const pageKey = (slug: string): string => `page-${slug}`;
export const checksKey = (slug: string): string => `page-${slug}-checks`;

/** The keys of an answer about `slug`: the page's, plus the checks key when a check can change it. */
export const pageKeys = (slug: string, changesWithChecks: boolean): readonly string[] =>
  changesWithChecks ? [pageKey(slug), checksKey(slug)] : [pageKey(slug)];
