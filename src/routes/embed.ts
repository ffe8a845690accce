// GET /api/embed/status and GET /api/embed/markdown. The status body is joined from the stored
// fragments of the embed hash (field order of read-api.md), taking incidents, rtm and upd only
// when asked for; the snippets are stored whole.
import { Router, type Request } from 'express';
import { rtmWindow } from '../../projections/render/embed.ts';
import { ApiError } from '../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { EmbedStatusQuery, type EmbedStatusQuery as Query } from '../http/schemas.ts';
import { cacheControl, cacheFor, sendBody } from '../http/send.ts';
import { etagOf } from '../models/bytes.ts';
import type { EmbedParts } from '../models/embed/codec.ts';

/** Missing slug before everything else; a repeated one cannot name a page. */
const embedSlug = (req: Request): string => {
  const raw: unknown = req.query['slug'];
  if (raw === undefined || raw === '') throw new ApiError('missing_slug');
  if (typeof raw !== 'string') throw new ApiError('invalid_parameters');
  return parseSlug(raw, 'not_found');
};

const asksForExtras = (req: Request): boolean =>
  ['inc', 'rtm', 'upd'].some((name) => req.query[name] !== undefined);

/** @throws ApiError service_unavailable when a needed fragment was not rendered */
const embedBody = (parts: Partial<EmbedParts>, query: Query): string => {
  const field = (name: keyof EmbedParts): string => {
    const value = parts[name];
    if (value === undefined) throw new ApiError('service_unavailable');
    return value;
  };
  const rtm =
    query.rtm === undefined
      ? ''
      : `,"rtm":${JSON.stringify(rtmWindow(JSON.parse(field('rtm')) as (number | null)[], query.rtm))}`;
  const upd =
    query.upd === undefined
      ? ''
      : `,"upd":${JSON.stringify((JSON.parse(field('upd')) as number[]).slice(-query.upd))}`;
  const incidents = query.inc === '1' ? field('incidents') : '[]';
  return `{${field('head')},"incidents":${incidents}${rtm}${upd},${field('tail')}}`;
};

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
