// GET /s/{slug}: the public status page of any page in the log, in the page's language or the one
// `?lang=` names, and its scripts (one per language) and one stylesheet. The document is a shell;
// the script reads everything else from the public API. No page to show is an HTML page too (404,
// or 503 while the read models are rebuilt; 400 for a language there is not).
// Every language is its own URL with the page's surrogate keys: one purge refreshes them all, and
// no answer depends on Accept-Language (no Vary).
import type { ErrorRequestHandler, Request, Response } from 'express';
import { pageKeys, STATIC_KEY } from '../edge/surrogateKeys.ts';
import { ApiError, isUndecodablePath, RETRY_AFTER_SECONDS } from '../http/errors.ts';
import { isStoreOutage } from '../http/storeOutage.ts';
import type { RouteDeps } from '../readModels/access/pageGate.ts';
import { Slug } from '../http/schemas.ts';
import { cacheFor, sendBody, STALE_IF_ERROR } from '../http/send.ts';
import { etagOf } from '../../projections/store/bytes.ts';
import { pageAssets, type Asset } from '../statusPage/assets.ts';
import { errorDocument, type ErrorStatus } from '../statusPage/errorDocument.ts';
import type { Route } from '../http/routeTable.ts';
import { documentHeaders, NOSNIFF } from '../statusPage/securityHeaders.ts';
import { pageDocument, SCRIPT_PATH, scriptPath, STYLE_PATH } from '../statusPage/pageDocument.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../projections/locale/locales.ts';
import { requestedLocale } from '../locale/langParam.ts';
import { subscribeUrl } from '../notify/email/links.ts';

const STATUS_PAGE_CACHE = `public, max-age=60${STALE_IF_ERROR}`;
const ASSET_CACHE = `public, max-age=300${STALE_IF_ERROR}`;
// The document links to `?v=<content hash>`: that exact URL never changes meaning.
const VERSIONED_ASSET_CACHE = `public, max-age=31536000, immutable${STALE_IF_ERROR}`;
const HTML = 'text/html; charset=utf-8';

const sendAsset = (pick: (assets: ReturnType<typeof pageAssets>) => Asset, contentType: string) => {
  return (req: Request, res: Response): void => {
    const asset = pick(pageAssets());
    res.setHeader('X-Content-Type-Options', NOSNIFF['X-Content-Type-Options']);
    sendBody(req, res, {
      body: asset.bytes,
      etag: asset.etag,
      contentType,
      cacheControl: req.query['v'] === asset.version ? VERSIONED_ASSET_CACHE : ASSET_CACHE,
      edge: { keys: [STATIC_KEY], lifetime: 'day' },
    });
  };
};

const sendErrorPage = (res: Response, status: ErrorStatus, locale: Locale = DEFAULT_LOCALE): void => {
  res.status(status).set({
    'Content-Type': HTML,
    'Cache-Control': 'no-store',
    ...(status === 503 ? { 'Retry-After': RETRY_AFTER_SECONDS } : {}),
    ...documentHeaders('error'),
  });
  res.end(errorDocument(status, locale, pageAssets()));
};

const unavailable = (err: unknown): boolean =>
  isStoreOutage(err) || (err instanceof ApiError && err.code === 'service_unavailable');

/** The language of a page that could not be read: the one asked for, if it is one. */
const askedLocale = (req: Request): Locale => requestedLocale(req, DEFAULT_LOCALE) ?? DEFAULT_LOCALE;

const errorPages: ErrorRequestHandler = (err, req, res, next) => {
  if (isUndecodablePath(err)) sendErrorPage(res, 404, askedLocale(req));
  else if (unavailable(err)) sendErrorPage(res, 503, askedLocale(req));
  else next(err);
};

/** `signup`: whether readers can subscribe by email (the document then links to the form). */
export const statusPageHtmlRoutes = ({ reads, locate, cache }: RouteDeps, signup = false): Route[] => [
  // The unsuffixed script is the English one: documents cached before there were languages name it.
  { path: SCRIPT_PATH, handle: sendAsset((assets) => assets.scripts.en, 'text/javascript; charset=utf-8') },
  ...LOCALES.map((locale) => ({
    path: scriptPath(locale),
    handle: sendAsset((assets) => assets.scripts[locale], 'text/javascript; charset=utf-8'),
  })),
  { path: STYLE_PATH, handle: sendAsset((assets) => assets.style, 'text/css; charset=utf-8') },
  {
    path: '/s/:slug',
    onError: errorPages,
    handle: async (req, res) => {
      const slug = Slug.safeParse(req.params['slug']);
      if (!slug.success) {
        sendErrorPage(res, 404, askedLocale(req));
        return;
      }
      const page = await locate(slug.data);
      const access = await cache.get(page, 'access', { load: () => reads.access(page), bytes: () => 0 });
      // Blocked pages are not found here, as on every page endpoint but charts (decisions.md).
      if (access === null || access.state !== 'active') {
        sendErrorPage(res, 404, askedLocale(req));
        return;
      }
      const locale = requestedLocale(req, access.locale);
      if (locale === null) {
        sendErrorPage(res, 400, access.locale);
        return;
      }
      const isPrivate = access.tokenHash !== null;
      const title = isPrivate ? null : (access.title ?? slug.data);
      // A private page's form needs its token, which the shell does not know: no link there. The
      // form speaks the language the reader chose here, if they chose one.
      const form = subscribeUrl('', slug.data) + (req.query['lang'] === undefined ? '' : `?lang=${locale}`);
      const subscribe = signup && !isPrivate ? { subscribe: { href: form } } : {};
      const body = pageDocument({ slug: slug.data, title, locale, assets: pageAssets(), ...subscribe });
      for (const [name, value] of Object.entries(documentHeaders(isPrivate ? 'private' : 'public')))
        res.setHeader(name, value);
      sendBody(req, res, {
        body,
        etag: etagOf(body),
        contentType: HTML,
        cacheControl: cacheFor(isPrivate, STATUS_PAGE_CACHE),
        from: access,
        edge: { keys: pageKeys(slug.data, false), lifetime: 'day' },
        settled: cache.isSettled(access),
      });
    },
  },
];
