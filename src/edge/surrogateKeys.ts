// The surrogate keys answers carry and purges name: `page-{slug}`, `page-{slug}.checks`, `static`
// (docs/deploy.md, "Behind a CDN or a shared cache"). A slug is [a-z0-9-], so a finer key (with a
// dot) never equals another page's key: `page-a-checks` is the page key of slug `a-checks`.
export const STATIC_KEY = 'static';

export const pageKey = (slug: string): string => `page-${slug}`;
export const checksKey = (slug: string): string => `page-${slug}.checks`;

/** The keys of an answer about `slug`: the page's, plus the checks key when a check can change it. */
export const pageKeys = (slug: string, changesWithChecks: boolean): readonly string[] =>
  changesWithChecks ? [pageKey(slug), checksKey(slug)] : [pageKey(slug)];
