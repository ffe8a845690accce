// GET /api/embed/status and GET /api/embed/markdown, joined from the stored embed fragments once
// per change of the page.
import type { Request } from 'express';
import { pageKeys } from '../../edge/surrogateKeys.ts';
import { ApiError } from '../../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../access/pageGate.ts';
import { embedBody, needsSeries } from './embedBody.ts';
import { EmbedStatusQuery } from '../../http/schemas.ts';
import { cacheControl, cacheFor, readyBody, sendBody } from '../../http/send.ts';
import type { PageAccess } from '../../../projections/access/codec.ts';
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

type EmbedVariant = Readonly<{
  access: PageAccess | null;
  /** null: the query is invalid, or a part it needs is not rendered (`missing`). */
  ready: Readonly<{ body: Buffer; etag: string }> | null;
  missing: boolean;
}>;

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
        const variant = query.success
          ? `embed|${query.data.inc}|${query.data.rtm}|${query.data.upd}|${series ? Math.floor(clockNow / MINUTE_MS) : ''}`
          : 'embed|-';
        const read = await cache.get(page, variant, {
          load: async (): Promise<EmbedVariant> => {
            const { access, instant, ...source } = await reads.embed(page, clockNow, series);
            if (!query.success) return { access, ready: null, missing: false };
            try {
              return {
                access,
                ready: readyBody(embedBody({ ...source, now: instant }, query.data)),
                missing: false,
              };
            } catch (error) {
              if (error instanceof ApiError) return { access, ready: null, missing: true };
              throw error;
            }
          },
          bytes: (value) => value.ready?.body.length ?? 0,
        });
        const { isPrivate, plan } = admit(read.access, req, pageRules);
        if (plan === 'free') throw new ApiError('embeds_not_in_plan');
        if (plan === 'pro' && asksForExtras(req)) throw new ApiError('plan_inc_rtm_upd');
        if (!query.success) throw new ApiError('invalid_parameters');
        if (read.ready === null) throw new ApiError('service_unavailable');
        sendBody(req, res, {
          ...read.ready,
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
        const { isPrivate, plan } = admit(read.access, req, pageRules);
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
