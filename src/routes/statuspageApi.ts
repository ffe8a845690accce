// GET /s/{slug}/api/v2/*.json: the Statuspage-compatible documents, so a client that appends
// Atlassian Statuspage's API v2 paths to a page URL works (docs/api.md has the mapping). Same
// access rules as the page endpoints; every plan has them.
import { Router } from 'express';
import { statuspageDocuments } from '../../projections/render/statuspage/documents.ts';
import { ApiError, undecodablePathAs } from '../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { cacheControl, cacheFor, sendBody } from '../http/send.ts';
import type { SubscriptionReads } from '../models/subscriptionReads.ts';

export const statuspageRoutes = ({ locate }: RouteDeps, reads: SubscriptionReads): Router => {
  const router = Router();
  for (const document of statuspageDocuments)
    router.get(`/s/:slug/api/v2/${document}.json`, async (req, res) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const read = await reads.statuspage(await locate(slug), document);
      const { isPrivate } = admit(read.access, req.query, pageRules);
      if (read.stored === null) throw new ApiError('service_unavailable');
      sendBody(req, res, { ...read.stored, cacheControl: cacheFor(isPrivate, cacheControl.lists) });
    });
  return router.use(undecodablePathAs('not_found'));
};
