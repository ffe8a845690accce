// GET /api/embed/status and GET /api/embed/markdown. The status body is joined from the stored
// fragments of the embed hash (field order of read-api.md), taking incidents, rtm and upd only
// when asked for; the snippets are stored whole.
import { Router, type Request } from 'express';
import { ApiError } from '../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { embedBody } from '../http/embedBody.ts';
import { EmbedStatusQuery } from '../http/schemas.ts';
import { cacheControl, cacheFor, sendBody } from '../http/send.ts';
import { etagOf } from '../models/bytes.ts';

/** Missing slug before everything else; a repeated one cannot name a page. */
export const embedSlug = (req: Request): string => {
  const raw: unknown = req.query['slug'];
  if (raw === undefined || raw === '') throw new ApiError('missing_slug');
  if (typeof raw !== 'string') throw new ApiError('invalid_parameters');
  return parseSlug(raw, 'not_found');
};

export const asksForExtras = (req: Request): boolean =>
  ['inc', 'rtm', 'upd'].some((name) => req.query[name] !== undefined);

export const embedRoutes = ({ reads, locate }: RouteDeps): Router =>
  Router()
    .get('/api/embed/status', async (req, res) => {
      const slug = embedSlug(req);
      const read = await reads.embed(await locate(slug));
      const { isPrivate, plan } = admit(read.access, req.query, pageRules);
      if (plan === 'free') throw new ApiError('embeds_not_in_plan');
      if (plan === 'pro' && asksForExtras(req)) throw new ApiError('plan_inc_rtm_upd');
      const query = EmbedStatusQuery.safeParse(req.query);
      if (!query.success) throw new ApiError('invalid_parameters');
      const body = embedBody(read.parts, query.data);
      sendBody(req, res, { body, etag: etagOf(body), cacheControl: cacheFor(isPrivate, cacheControl.embed) });
    })
    .get('/api/embed/markdown', async (req, res) => {
      const slug = embedSlug(req);
      const read = await reads.bytes(await locate(slug), 'snippets');
      const { isPrivate, plan } = admit(read.access, req.query, pageRules);
      if (plan === 'free' || plan === 'pro') throw new ApiError('markdown_not_in_plan');
      if (read.stored === null) throw new ApiError('service_unavailable');
      sendBody(req, res, { ...read.stored, cacheControl: cacheFor(isPrivate, cacheControl.snippets) });
    });
