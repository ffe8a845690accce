// GET /api/status-pages/{slug}/incidents[/filter|/daily-counts] (read-api.md §Incidents).
import { Router } from 'express';
import { undecodablePathAs } from '../http/errors.ts';
import type { RouteDeps } from '../http/pageGate.ts';
import { IncidentListQuery } from '../http/schemas.ts';
import { pageListHandlers } from './pageLists.ts';

export const incidentRoutes = (deps: RouteDeps): Router => {
  const handlers = pageListHandlers(deps, {
    field: 'incidents',
    docs: (keys) => keys.incidentDocs,
    month: (keys, month) => keys.incidentMonth(month),
    counts: (keys) => keys.incidentCounts,
  });
  return Router()
    .get(
      '/api/status-pages/:slug/incidents',
      handlers.list(IncidentListQuery, (keys) => keys.incidentList),
    )
    .get('/api/status-pages/:slug/incidents/filter', handlers.month())
    .get('/api/status-pages/:slug/incidents/daily-counts', handlers.counts())
    .use(undecodablePathAs('not_found'));
};
