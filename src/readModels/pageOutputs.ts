// Every key a page's renders write, listed from the models' own key builders and from what the
// page's last render recorded (the months of its lists), so deleting a page needs no SCAN of the
// keyspace: a SCAN walks every key of the server (of every master on a cluster) to find a few.
import { embedKeys } from '../../projections/embed/codec.ts';
import { feedsKey } from '../../projections/feeds/storage.ts';
import { MAINTENANCE_STATUSES } from '../../projections/lists/codec.ts';
import { incidentKeys, maintenanceKeys } from '../../projections/lists/keys.ts';
import type { PageRef } from '../../projections/store/page.ts';
import { hashFields, mapRead, type Read } from '../store/reads.ts';
import { statuspageKey } from '../../projections/statuspage/storage.ts';

/**
 * The keys of a page's rendered outputs, with `maintenanceMonths` the months its last render
 * recorded (`mnt:months`). Not here: the page document, updated time and access (a deleted page
 * keeps them) and each monitor's availability (deleted with the monitor's models).
 */
export const renderedKeysRead = (page: PageRef, maintenanceMonths: readonly string[]): Read<string[]> => {
  const incidents = incidentKeys(page);
  const maintenances = maintenanceKeys(page);
  return mapRead(hashFields(incidents.counts), (incidentMonths) => [
    ...Object.values(embedKeys(page)),
    feedsKey(page),
    statuspageKey(page),
    incidents.list,
    incidents.docs,
    incidents.counts,
    ...incidentMonths.map(incidents.month),
    maintenances.list,
    maintenances.docs,
    maintenances.counts,
    maintenances.months,
    ...MAINTENANCE_STATUSES.map(maintenances.status),
    ...maintenanceMonths.map(maintenances.month),
  ]);
};
