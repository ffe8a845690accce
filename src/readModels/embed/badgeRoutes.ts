// GET /badge/{slug}.svg: the README badge always answers an image, so failures are grey "Unknown"
// badges with the error's status (and no-store, so a fixed page shows at once) instead of JSON.
import type { ErrorRequestHandler, Request, Response } from 'express';
import { badgeSvg } from '../../embed/badgeSvg.ts';
import { isOverall, type OverallStatus } from '../../shared/overallStatus.ts';
import { pageKeys } from '../../edge/surrogateKeys.ts';
import { ApiError, apiErrorTable, errorCodeOf, RETRY_AFTER_SECONDS } from '../../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../access/pageGate.ts';
import { cacheControl, cacheFor, sendBody } from '../../http/send.ts';
import { etagOf } from '../../../projections/store/bytes.ts';
import type { Route } from '../../http/routeTable.ts';
import { MINUTE_MS } from '../../shared/time.ts';
import { DEFAULT_LOCALE, type Locale } from '../../../projections/locale/locales.ts';
import { requestedLocale } from '../../locale/langParam.ts';

const SVG_TYPE = 'image/svg+xml; charset=utf-8';

// Six possible images per language: render each once.
const rendered = new Map<string, { body: Buffer; etag: string }>();
const badge = (status: OverallStatus | 'unknown', locale: Locale) => {
  const key = `${status}|${locale}`;
  let image = rendered.get(key);
  if (image === undefined) {
    const body = badgeSvg(status, locale);
    image = { body: Buffer.from(body, 'utf8'), etag: etagOf(body) };
    rendered.set(key, image);
  }
  return image;
};

const sendUnknown = (req: Request, res: Response, status: number): void => {
  if (status === 503) res.set('Retry-After', RETRY_AFTER_SECONDS);
  sendBody(req, res, {
    ...badge('unknown', requestedLocale(req, DEFAULT_LOCALE) ?? DEFAULT_LOCALE),
    status,
    contentType: SVG_TYPE,
    cacheControl: cacheControl.noStore,
  });
};

// Every answerable error, Redis outages included (503), is an image; only a bug is not.
const greyOnError: ErrorRequestHandler = (err, req, res, next) => {
  const code = errorCodeOf(err);
  if (code === null || res.headersSent) next(err);
  else sendUnknown(req, res, apiErrorTable[code].status);
};

export const badgeRoutes = ({ reads, locate, cache, clock }: RouteDeps): Route[] => [
  {
    path: '/badge/:file',
    handle: async (req, res) => {
      const file = /^(.*)\.svg$/.exec(String(req.params['file']));
      const slug = parseSlug(file?.[1], 'not_found');
      const page = await locate(slug);
      const clockNow = clock().getTime();
      // The status at the minute's instant: a window boundary at the minute is a new entry.
      const read = await cache.get(page, `overall|${Math.floor(clockNow / MINUTE_MS)}`, {
        load: () => reads.overall(page, clockNow),
        bytes: () => 0,
      });
      const { isPrivate, plan } = await admit(read.access, req, pageRules);
      if (plan === 'free') throw new ApiError('embeds_not_in_plan');
      if (!isOverall(read.overall)) throw new ApiError('service_unavailable');
      const pageLocale = read.access?.state === 'active' ? read.access.locale : DEFAULT_LOCALE;
      const locale = requestedLocale(req, pageLocale);
      if (locale === null) throw new ApiError('invalid_parameters');
      const image = badge(read.overall, locale);
      sendBody(req, res, {
        ...image,
        contentType: SVG_TYPE,
        cacheControl: cacheFor(isPrivate, cacheControl.static),
        from: read,
        edge: { keys: pageKeys(slug, true), lifetime: 'minute' },
        settled: cache.isSettled(read),
      });
    },
    onError: greyOnError,
  },
];
