// Incidents and maintenances are rendered whole whenever one changes (or, for maintenances,
// the clock moves one across a window boundary): their status, status lists and month lists all
// follow from the docs and the clock. Maintenance months written are remembered so the next
// render can clear them.
import {
  incidentDailyCounts,
  maintenanceDailyCounts,
  monthsOfIncident,
  monthsOfMaintenance,
} from '../../projections/render/dailyCounts.ts';
import { incidentJson } from '../../projections/render/incidentJson.ts';
import { maintenanceJson, maintenanceStatus } from '../../projections/render/maintenanceJson.ts';
import type { PageState } from '../../projections/types.ts';
import { replaceIncidents, replaceMaintenances } from '../models/lists/writes.ts';
import type { PageRef } from '../models/page.ts';
import type { WriteOp } from '../models/redis/writeOps.ts';

const json = (value: unknown) => JSON.stringify(value);

export const renderIncidents = (page: PageRef, state: PageState): WriteOp[] => {
  const docs = Object.values(state.incidents);
  const items = docs.map((doc) => ({
    id: doc.id,
    startMs: doc.startedAt,
    json: json(incidentJson(doc)),
    months: monthsOfIncident(doc),
  }));
  const months = new Set(items.flatMap((item) => item.months));
  return replaceIncidents(
    page,
    items,
    [...months].map((month) => [month, json(incidentDailyCounts(docs, month))] as const),
  );
};

export const renderMaintenances = (
  page: PageRef,
  state: PageState,
  previousMonths: readonly string[],
  now: number,
): WriteOp[] => {
  const docs = Object.values(state.maintenances);
  const items = docs.map((doc) => ({
    id: doc.id,
    startMs: doc.scheduledStart,
    json: json(maintenanceJson(doc, now)),
    months: monthsOfMaintenance(doc),
    status: maintenanceStatus(doc, now),
  }));
  const months = new Set(items.flatMap((item) => item.months));
  return replaceMaintenances(
    page,
    items,
    [...months].map((month) => [month, json(maintenanceDailyCounts(docs, month))] as const),
    previousMonths,
  );
};
