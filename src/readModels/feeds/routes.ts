// GET /s/{slug}/feed.atom and /s/{slug}/feed.rss: the stored feeds, with Last-Modified and
// If-Modified-Since beside the strong ETag (feed readers use either). A private page's feed needs
// its auth_token in the query; without it the page does not exist (404), as for a blocked one.
import type { Request, Response } from 'express';
import { pageKeys } from '../../edge/surrogateKeys.ts';
import { ApiError } from '../../http/errors.ts';
import { admit, parseSlug, type AccessRules, type RouteDeps } from '../access/pageGate.ts';
import { cacheFor, sendBody, setEdgeHeaders, STALE_IF_ERROR } from '../../http/send.ts';
import type { FeedFormat } from './reads.ts';
import type { SubscriptionReads } from '../subscriptionReads.ts';
import type { Route } from '../../http/routeTable.ts';

const FEED_CACHE = `public, max-age=60${STALE_IF_ERROR}`;
const feedRules: AccessRules = { missing: 'not_found', blocked: 'not_found', locked: 'not_found' };
const contentTypes = {
  atom: 'application/atom+xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
} as const satisfies Record<FeedFormat, string>;

/** If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3), to the second. */
const notModifiedSince = (req: Request, modifiedMs: number): boolean => {
  const since = req.headers['if-modified-since'];
  if (req.headers['if-none-match'] !== undefined || since === undefined) return false;
  const sinceMs = Date.parse(since);
  return Number.isFinite(sinceMs) && Math.floor(modifiedMs / 1000) * 1000 <= sinceMs;
};

const feedRoute =
  ({ locate, cache }: RouteDeps, reads: SubscriptionReads, format: FeedFormat) =>
  async (req: Request, res: Response) => {
    const slug = parseSlug(req.params['slug'], 'not_found');
    const page = await locate(slug);
    const read = await cache.get(page, `feed|${format}`, {
      load: () => reads.feed(page, format),
      bytes: (value) => value.stored?.body.length ?? 0,
    });
    const { isPrivate } = await admit(read.access, req, feedRules);
    if (read.stored === null) throw new ApiError('service_unavailable');
    const cacheControl = cacheFor(isPrivate, FEED_CACHE);
    // Maintenance entries follow their status, which moves with the clock.
    const edge = { keys: pageKeys(slug, false), lifetime: 'minute' as const };
    const settled = cache.isSettled(read);
    res.setHeader('Last-Modified', new Date(read.modified).toUTCString());
    if (notModifiedSince(req, read.modified)) {
      res.setHeader('ETag', read.stored.etag);
      res.setHeader('Cache-Control', cacheControl);
      setEdgeHeaders(res, { edge, settled, cacheControl });
      res.statusCode = 304;
      res.end();
      return;
    }
    sendBody(req, res, {
      ...read.stored,
      contentType: contentTypes[format],
      cacheControl,
      from: read,
      edge,
      settled,
    });
  };

export const feedRoutes = (deps: RouteDeps, reads: SubscriptionReads): Route[] => [
  { path: '/s/:slug/feed.atom', handle: feedRoute(deps, reads, 'atom') },
  { path: '/s/:slug/feed.rss', handle: feedRoute(deps, reads, 'rss') },
];
