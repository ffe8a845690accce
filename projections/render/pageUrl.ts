// The public address of a status page (page_url, status_page_url): its custom domain if it has one.
import type { PageSettings, UrlSettings } from '../types.ts';

export const pageUrl = (settings: Pick<PageSettings, 'slug' | 'customDomain'>, urls: UrlSettings): string => {
  if (settings.customDomain !== null) return `https://${settings.customDomain}`;
  const baseUrl = urls.baseUrl.replace(/\/+$/, '');
  // Function replacements: a `$` in a configured URL must not act as a replacement pattern.
  return urls.pageUrlTemplate
    .replaceAll('{base_url}', () => baseUrl)
    .replaceAll('{slug}', () => encodeURIComponent(settings.slug));
};
