// What the response memo keys an answer on: what the route validated, never the raw request
// (docs/operations.md, "Caches under a flood of random URLs").
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { statuspageDocuments } from '../../projections/statuspage/documents.ts';
import { pageSuffixOf } from './hostRouting.ts';

const LIST = ['page', 'page_size'];
const MONTH = ['month'];
/** The query parameters of each memoized route (schemas.ts); auth_token is never part of a key. */
const ROUTE_PARAMS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(statuspageDocuments.map((name) => [`/s/:slug/api/v2/${name}.json`, []])),
  '/api/status-pages/:slug/incidents': LIST,
  '/api/status-pages/:slug/maintenances': [...LIST, 'status'],
  '/api/status-pages/:slug/incidents/filter': MONTH,
  '/api/status-pages/:slug/incidents/daily-counts': MONTH,
  '/api/status-pages/:slug/maintenances/filter': MONTH,
  '/api/status-pages/:slug/maintenances/daily-counts': MONTH,
  '/api/status-pages/:slug/monitors/:monitorID/availability': ['period'],
  '/api/status/:slug/charts': [],
  '/api/status-page/:slug/minute-data': [],
  '/api/embed/status': ['slug', 'inc', 'rtm', 'upd'],
  '/api/embed/markdown': ['slug'],
  '/badge/:file': ['lang'],
  '/s/:slug': ['lang'],
  '/s/:slug/feed.atom': [],
  '/s/:slug/feed.rss': [],
};
const KNOWN = new Set(Object.values(ROUTE_PARAMS).flat());
const MAX_PATH = 512;

type Pair = readonly [name: string, value: string];

/** The known parameters of a raw query, sorted; null when a name cannot be decoded. */
const knownPairs = (query: string): Pair[] | null => {
  const pairs: Pair[] = [];
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const raw = eq === -1 ? part : part.slice(0, eq);
    let name = raw;
    if (/[%+]/.test(raw)) {
      try {
        name = decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        return null;
      }
    }
    if (KNOWN.has(name)) pairs.push([name, eq === -1 ? '' : part.slice(eq + 1)]);
  }
  return pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
};

const splitUrl = (url: string): [path: string, query: string] => {
  const q = url.indexOf('?');
  return q === -1 ? [url, ''] : [url.slice(0, q), url.slice(q + 1)];
};

/** The memo key of a raw request, or null when it is not one the memo could ever answer. */
export const memoKeyOf = (req: IncomingMessage): string | null => {
  const [path, query] = splitUrl(req.url ?? '');
  if (path.length > MAX_PATH) return null;
  const pairs = knownPairs(query);
  if (pairs === null) return null;
  const host =
    pageSuffixOf(path) === null
      ? ''
      : `${req.headers.host ?? ''}\n${String(req.headers['x-forwarded-host'] ?? '')}`;
  return `${host}\n${path}?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`;
};

const PARAM = /:([A-Za-z]+)/g;

/** Whether the request reached its route in the one spelling its memo key stands for. */
export const isCanonical = (req: Request, route: string): boolean => {
  const allowed = ROUTE_PARAMS[route];
  if (allowed === undefined) return false;
  const [original] = splitUrl(req.originalUrl);
  const [path, query] = splitUrl(req.url);
  // At a custom domain's root the page comes from the host: only a rewritten request is one.
  if (pageSuffixOf(original) !== null && original === path) return false;
  const filled = route.replace(PARAM, (_m, name: string) => String(req.params[name] ?? '\u0000'));
  if (filled !== path) return false;
  for (const [name, value] of knownPairs(query) ?? [['', '%']]) {
    if (!allowed.includes(name) || /[%+]/.test(value) || /[%+]/.test(name)) return false;
  }
  return true;
};
