// Custom domains: a request whose host is a page's custom domain is rewritten onto that page's
// /s/{slug} routes, with the page-scoped paths at the domain's root.
import type { RequestHandler } from 'express';
import { normalizeHost } from '../shared/hostName.ts';

/** The slug of the live page whose custom domain is `host` (in normalizeHost form), or null. */
type DomainLookup = (host: string) => string | null | Promise<string | null>;

const STATUSPAGE_DOCUMENT = /^\/api\/v2\/[a-z0-9/_-]+\.json$/;

/** What follows /s/{slug} for a path at a custom domain's root; null for the paths it leaves alone. */
export const pageSuffixOf = (path: string): string | null => {
  if (path === '/') return '';
  if (path === '/feed.atom' || path === '/feed.rss' || STATUSPAGE_DOCUMENT.test(path)) return path;
  return null;
};

/**
 * Express middleware; the host comes from req.hostname, which reads X-Forwarded-Host only when the
 * app's `trust proxy` trusts the peer (TRUST_PROXY).
 */
export const hostRouting =
  (pageOf: DomainLookup): RequestHandler =>
  (req, res, next) => {
    const suffix = req.method === 'GET' || req.method === 'HEAD' ? pageSuffixOf(req.path) : null;
    const hostname = suffix === null ? undefined : (req.hostname as string | undefined); // none without a Host header
    const host = hostname === undefined ? null : normalizeHost(hostname);
    if (host === null) {
      next(); // most requests: no page path at a domain's root, nothing to wait for
      return;
    }
    void Promise.resolve(pageOf(host)).then((slug) => {
      if (slug !== null) {
        // The same path is another page at another host: a shared cache must key on it too.
        res.setHeader('Vary', req.app.get('trust proxy') === false ? 'Host' : 'Host, X-Forwarded-Host');
        const query = req.url.indexOf('?');
        req.url = `/s/${slug}${suffix ?? ''}${query === -1 ? '' : req.url.slice(query)}`;
      }
      next();
    }, next);
  };
