// GET /s/{slug}/api/v2/*.json: the Statuspage-compatible documents, so a client that appends
// Atlassian Statuspage's API v2 paths to a page URL works (docs/api.md has the mapping). Same
// access rules as the page endpoints; every plan has them.
import { statuspageDocuments } from '../../../projections/statuspage/documents.ts';
import { pageKeys } from '../../edge/surrogateKeys.ts';
import { ApiError } from '../../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../access/pageGate.ts';
import { cacheControl, cacheFor, sendBody } from '../../http/send.ts';
import type { StatuspageReads } from './reads.ts';
import { storedSize } from '../pageReads.ts';
import type { Route } from '../../http/routeTable.ts';

export const statuspageApiRoutes = ({ locate, cache, clock }: RouteDeps, reads: StatuspageReads): Route[] =>
  statuspageDocuments.map((document) => ({
    path: `/s/:slug/api/v2/${document}.json`,
    handle: async (req, res) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const page = await locate(slug);
      const read = await cache.get(page, `statuspage|${document}`, {
        load: () => reads.document(page, document, clock().getTime()),
        bytes: storedSize,
      });
      const { isPrivate } = await admit(read.access, req, pageRules);
      if (read.stored === null) throw new ApiError('service_unavailable');
      sendBody(req, res, {
        ...read.stored,
        cacheControl: cacheFor(isPrivate, cacheControl.lists),
        from: read,
        edge: { keys: pageKeys(slug, true), lifetime: 'minute' },
        settled: cache.isSettled(read),
      });
    },
  }));
