// GET /api/embed/status and GET /api/embed/markdown, joined from the stored embed fragments (and,
// for rtm and upd, the series' figures of the minute).
import type { Request } from 'express';
import { pageKeys } from '../../edge/surrogateKeys.ts';
import { ApiError } from '../../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../access/pageGate.ts';
import { embedBody, needsSeries, seriesFigures, type SeriesFigures } from './embedBody.ts';
import { EmbedStatusQuery } from '../../http/schemas.ts';
import { cacheControl, cacheFor, readyBody, sendBody } from '../../http/send.ts';
import type { PageAccess } from '../../../projections/access/codec.ts';
import type { EmbedParts } from '../../../projections/embed/codec.ts';
import { MINUTE_MS } from '../../shared/time.ts';
import { storedSize } from '../pageReads.ts';
import type { Route } from '../../http/routeTable.ts';

/** Missing slug before everything else; a repeated one cannot name a page. */
export const embedSlug = (req: Request): string => {
  const raw: unknown = req.query['slug'];
  if (raw === undefined || raw === '') throw new ApiError('missing_slug');
  if (typeof raw !== 'string') throw new ApiError('invalid_parameters');
  return parseSlug(raw, 'not_found');
};

export const asksForExtras = (req: Request): boolean =>
  req.query['inc'] !== undefined || req.query['rtm'] !== undefined || req.query['upd'] !== undefined;

/**
 * What every variant of a page's embed is cut from (one cache entry per page, and per minute for
 * the variants with rtm or upd): one Redis read and one pass over the series, however many
 * variants are asked for. Each variant's body is joined from it when the memo has no answer.
 */
type EmbedSourceRead = Readonly<{
  access: PageAccess | null;
  parts: Partial<EmbedParts>;
  updatedAt: number | null;
  figures: SeriesFigures | null;
  /** The instant it was made for (the body's `updated` before the page's first event). */
  now: number;
}>;

// Parts as UTF-16 strings, the figures as numbers.
const sourceSize = ({ parts, figures }: EmbedSourceRead): number =>
  2 * ((parts.head?.length ?? 0) + (parts.incidents?.length ?? 0) + (parts.tail?.length ?? 0)) +
  16 * ((figures?.rtm.length ?? 0) + (figures?.upd.length ?? 0));

export const embedRoutes = ({ reads, locate, cache, clock }: RouteDeps): Route[] => {
  return [
    {
      path: '/api/embed/status',
      handle: async (req, res) => {
        const slug = embedSlug(req);
        const query = EmbedStatusQuery.safeParse(req.query);
        const page = await locate(slug);
        const clockNow = clock().getTime();
        const series = query.success && needsSeries(query.data);
        // rtm and upd shift with the minute: a new minute is a new entry for those variants.
        const read = await cache.get(page, `embed|${series ? Math.floor(clockNow / MINUTE_MS) : ''}`, {
          load: async (): Promise<EmbedSourceRead> => {
            const { access, parts, updatedAt, monitors, instant } = await reads.embed(page, clockNow, series);
            const figures = monitors === null ? null : seriesFigures(monitors, instant);
            return { access, parts, updatedAt, figures, now: instant };
          },
          bytes: sourceSize,
        });
        const { isPrivate, plan } = await admit(read.access, req, pageRules);
        if (plan === 'free') throw new ApiError('embeds_not_in_plan');
        if (plan === 'pro' && asksForExtras(req)) throw new ApiError('plan_inc_rtm_upd');
        if (!query.success) throw new ApiError('invalid_parameters');
        sendBody(req, res, {
          ...readyBody(embedBody(read, query.data)), // service_unavailable while a part is missing
          cacheControl: cacheFor(isPrivate, cacheControl.embed),
          from: read,
          edge: { keys: pageKeys(slug, true), lifetime: 'minute' },
          settled: cache.isSettled(read),
        });
      },
    },
    {
      path: '/api/embed/markdown',
      handle: async (req, res) => {
        const slug = embedSlug(req);
        const page = await locate(slug);
        const read = await cache.get(page, 'snippets', {
          load: () => reads.snippets(page),
          bytes: storedSize,
        });
        const { isPrivate, plan } = await admit(read.access, req, pageRules);
        if (plan === 'free' || plan === 'pro') throw new ApiError('markdown_not_in_plan');
        if (read.stored === null) throw new ApiError('service_unavailable');
        sendBody(req, res, {
          ...read.stored,
          cacheControl: cacheFor(isPrivate, cacheControl.snippets),
          from: read,
          edge: { keys: pageKeys(slug, true), lifetime: 'minute' },
          settled: cache.isSettled(read),
        });
      },
    },
  ];
};
