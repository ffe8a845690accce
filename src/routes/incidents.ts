// GET /api/status-pages/{slug}/incidents[/filter|/daily-counts] (read-api.md §Incidents).
import { Router } from 'express';
import { undecodablePathAs } from '../http/errors.ts';
import type { RouteDeps } from '../http/pageGate.ts';
import { IncidentListQuery } from '../http/schemas.ts';
import { incidentKeys } from '../models/lists/keys.ts';
import { pageListHandlers } from './pageLists.ts';

export const incidentRoutes = (deps: RouteDeps): Router => {
  const handlers = pageListHandlers(deps, { field: 'incidents', keys: incidentKeys });
  return Router()
    .get(
      '/api/status-pages/:slug/incidents',
      handlers.list(IncidentListQuery, (page) => incidentKeys(page).list),
    )
    .get('/api/status-pages/:slug/incidents/filter', handlers.month())
    .get('/api/status-pages/:slug/incidents/daily-counts', handlers.counts())
    .use(undecodablePathAs('not_found'));
};
