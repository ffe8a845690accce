// GET /api/status-pages/{slug}/maintenances[/filter|/daily-counts] (read-api.md §Maintenances).
// `status=all` (the default) is the whole list, cancelled included; any other status has its own list.
import type { RouteDeps } from '../access/pageGate.ts';
import { MaintenanceListQuery } from '../../http/schemas.ts';
import { maintenanceKeys } from '../../../projections/lists/keys.ts';
import { pageListHandlers } from './listRoutes.ts';
import type { Route } from '../../http/routeTable.ts';

export const maintenanceRoutes = (deps: RouteDeps): Route[] => {
  const handlers = pageListHandlers(deps, { field: 'maintenances', keys: maintenanceKeys });
  return [
    {
      path: '/api/status-pages/:slug/maintenances',
      handle: handlers.list(MaintenanceListQuery, (page, query) =>
        query.status === 'all' ? maintenanceKeys(page).list : maintenanceKeys(page).status(query.status),
      ),
    },
    { path: '/api/status-pages/:slug/maintenances/filter', handle: handlers.month() },
    { path: '/api/status-pages/:slug/maintenances/daily-counts', handle: handlers.counts() },
  ];
};
