// GET /api/status/{slug}/charts and GET /api/status-page/{slug}/minute-data: stored responses sent
// as they are. Never cached by clients (read-api.md: poll every 15–60 s instead).
import type { Request, Response } from 'express';
import { pageKeys } from '../edge/surrogateKeys.ts';
import { ApiError } from '../http/errors.ts';
import { admit, chartRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { cacheControl, cacheFor, sendBody } from '../http/send.ts';
import type { StoredRead } from '../models/pageReads.ts';
import type { Route } from './routeTable.ts';

export const storedSize = (read: StoredRead): number => read.stored?.body.length ?? 0;

export const chartRoutes = ({ reads, locate, cache }: RouteDeps): Route[] => {
  const stored = (model: 'charts' | 'minute') => async (req: Request, res: Response) => {
    const slug = parseSlug(req.params['slug'], 'status_page_not_found');
    const page = await locate(slug);
    const read = await cache.get(page, model, () => reads.bytes(page, model), storedSize);
    const { isPrivate } = admit(read.access, req, chartRules);
    if (read.stored === null) throw new ApiError('service_unavailable'); // page known, model not rendered yet
    sendBody(req, res, {
      ...read.stored,
      cacheControl: cacheFor(isPrivate, cacheControl.noStore),
      from: read,
      edge: { keys: pageKeys(slug, true), lifetime: 'minute' },
      settled: cache.isSettled(read),
    });
  };
  return [
    { path: '/api/status/:slug/charts', handle: stored('charts'), undecodable: 'status_page_not_found' },
    {
      path: '/api/status-page/:slug/minute-data',
      handle: stored('minute'),
      undecodable: 'status_page_not_found',
    },
  ];
};
