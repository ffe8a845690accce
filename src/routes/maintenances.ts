// GET /api/status-pages/{slug}/maintenances[/filter|/daily-counts] (read-api.md §Maintenances).
// `status=all` (the default) is the whole list, cancelled included; any other status has its own list.
import { Router } from 'express';
import { undecodablePathAs } from '../http/errors.ts';
import type { RouteDeps } from '../http/pageGate.ts';
import { MaintenanceListQuery } from '../http/schemas.ts';
import { maintenanceKeys } from '../models/lists/keys.ts';
import { pageListHandlers } from './pageLists.ts';

export const maintenanceRoutes = (deps: RouteDeps): Router => {
  const handlers = pageListHandlers(deps, { field: 'maintenances', keys: maintenanceKeys });
  return Router()
    .get(
      '/api/status-pages/:slug/maintenances',
      handlers.list(MaintenanceListQuery, (page, query) =>
        query.status === 'all' ? maintenanceKeys(page).list : maintenanceKeys(page).status(query.status),
      ),
    )
    .get('/api/status-pages/:slug/maintenances/filter', handlers.month())
    .get('/api/status-pages/:slug/maintenances/daily-counts', handlers.counts())
    .use(undecodablePathAs('not_found'));
};
