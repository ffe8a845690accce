// GET /api/status/{slug}/charts and GET /api/status-page/{slug}/minute-data: stored responses sent
// as they are. Never cached by clients (read-api.md: poll every 15–60 s instead).
import { Router, type RequestHandler } from 'express';
import { ApiError, undecodablePathAs } from '../http/errors.ts';
import { admit, chartRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { cacheControl, cacheFor, sendBody } from '../http/send.ts';

export const chartRoutes = ({ reads, locate }: RouteDeps): Router => {
  const stored =
    (model: 'charts' | 'minute'): RequestHandler<{ slug: string }> =>
    async (req, res) => {
      const slug = parseSlug(req.params.slug, 'status_page_not_found');
      const read = await reads.bytes(await locate(slug), model);
      const { isPrivate } = admit(read.access, req.query, chartRules);
      if (read.stored === null) throw new ApiError('service_unavailable'); // page known, model not rendered yet
      sendBody(req, res, { ...read.stored, cacheControl: cacheFor(isPrivate, cacheControl.noStore) });
    };
  return Router()
    .get('/api/status/:slug/charts', stored('charts'))
    .get('/api/status-page/:slug/minute-data', stored('minute'))
    .use(undecodablePathAs('status_page_not_found'));
};
