// GET /api/status-pages/{slug}/monitors/{monitorID}/availability: one stored response per monitor
// and period. An unknown monitor outranks a bad period (decisions.md, "HTTP"), so the monitor's
// existence is read even when the period is invalid.
import { pageKeys } from '../../edge/surrogateKeys.ts';
import { ApiError } from '../../http/errors.ts';
import { admit, availabilityRules, parseSlug, type RouteDeps } from '../access/pageGate.ts';
import { MonitorIdPath, PeriodQuery } from '../../http/schemas.ts';
import { cacheControl, cacheFor, sendBody } from '../../http/send.ts';
import { storedSize } from '../pageReads.ts';
import type { Route } from '../../http/routeTable.ts';

export const availabilityRoutes = ({ reads, locate, cache }: RouteDeps): Route[] => [
  {
    path: '/api/status-pages/:slug/monitors/:monitorID/availability',
    handle: async (req, res) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const parsedId = MonitorIdPath.safeParse(req.params['monitorID']);
      const query = PeriodQuery.safeParse(req.query);
      const monitorId = parsedId.success ? parsedId.data : null;
      const period = query.success ? query.data.period : null;
      const page = await locate(slug);
      const read = await cache.get(page, `availability|${monitorId}|${period}`, {
        load: () => reads.availability(page, monitorId, period),
        bytes: storedSize,
      });
      const { isPrivate } = await admit(read.access, req, availabilityRules);
      if (!read.monitorExists) throw new ApiError('not_found');
      if (!query.success) throw new ApiError('invalid_period');
      if (read.stored === null) throw new ApiError('service_unavailable'); // monitor known, period not rendered
      sendBody(req, res, {
        ...read.stored,
        cacheControl: cacheFor(isPrivate, cacheControl.lists),
        from: read,
        edge: { keys: pageKeys(slug, true), lifetime: 'minute' },
        settled: cache.isSettled(read),
      });
    },
  },
];
