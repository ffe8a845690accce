// GET /api/status-pages/{slug}/incidents[/filter|/daily-counts] (read-api.md §Incidents).
import type { RouteDeps } from '../access/pageGate.ts';
import { IncidentListQuery } from '../../http/schemas.ts';
import { incidentKeys } from '../../../projections/lists/keys.ts';
import { pageListHandlers } from './listRoutes.ts';
import type { Route } from '../../http/routeTable.ts';

export const incidentRoutes = (deps: RouteDeps): Route[] => {
  const handlers = pageListHandlers(deps, { field: 'incidents', keys: incidentKeys });
  return [
    {
      path: '/api/status-pages/:slug/incidents',
      handle: handlers.list(IncidentListQuery, (page) => incidentKeys(page).list),
    },
    { path: '/api/status-pages/:slug/incidents/filter', handle: handlers.month() },
    { path: '/api/status-pages/:slug/incidents/daily-counts', handle: handlers.counts() },
  ];
};
