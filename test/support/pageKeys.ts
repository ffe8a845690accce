// Every key of one page, by the names tests use, built from the models' own key builders.
import type { MaintenanceStatus } from '../../projections/types.ts';
import { accessKey } from '../../projections/access/storage.ts';
import { availabilityKey } from '../../projections/availability/storage.ts';
import { embedKeys } from '../../projections/embed/codec.ts';
import { incidentKeys, maintenanceKeys } from '../../projections/lists/keys.ts';
import { pageStateKeys } from '../../projections/pageState/keys.ts';

export const pageKeys = (tag: string, slug: string) => {
  const page = { tag, slug };
  const incidents = incidentKeys(page);
  const maintenances = maintenanceKeys(page);
  return {
    ...pageStateKeys(page),
    access: accessKey(page),
    ...embedKeys(page),
    incidentList: incidents.list,
    incidentMonth: incidents.month,
    incidentDocs: incidents.docs,
    incidentCounts: incidents.counts,
    maintenanceList: maintenances.list,
    maintenanceStatus: (status: string) => maintenances.status(status as MaintenanceStatus),
    maintenanceMonth: maintenances.month,
    maintenanceDocs: maintenances.docs,
    maintenanceCounts: maintenances.counts,
    maintenanceMonths: maintenances.months,
    availability: (monitorId: number) => availabilityKey(page, monitorId),
  };
};
