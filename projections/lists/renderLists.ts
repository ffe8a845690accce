// Renders the incident and maintenance lists: incidents by the incident, maintenances whole
// whenever one changes.
import {
  incidentDailyCounts,
  dailyCountsOf,
  maintenanceDailyCounts,
  monthsOfIncident,
  monthsOfMaintenance,
} from './dailyCounts.ts';
import { incidentJson } from './incidentJson.ts';
import { maintenanceJson, maintenanceStatus } from './maintenanceJson.ts';
import type { IncidentDoc, PageState } from '../types.ts';
import type { ListItem } from './codec.ts';
import { putIncidents, replaceIncidents, replaceMaintenances } from './writes.ts';
import type { PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';

const json = (value: unknown) => JSON.stringify(value);

const incidentItem = (doc: IncidentDoc): ListItem => ({
  id: doc.id,
  startMs: doc.startedAt,
  json: json(incidentJson(doc)),
  months: monthsOfIncident(doc),
});

export const renderIncidents = (page: PageRef, state: PageState): WriteOp[] => {
  const docs = Object.values(state.incidents);
  const items = docs.map(incidentItem);
  const months = new Set(items.flatMap((item) => item.months));
  return replaceIncidents(
    page,
    items,
    [...months].map((month) => [month, json(incidentDailyCounts(docs, month))] as const),
  );
};

/**
 * Only the incidents `ids` changed: their documents and list places are written, and the daily
 * counts of their months (an incident never changes its start, nor leaves its page but with it).
 * What the whole render would write for every other incident is already stored.
 */
export const renderChangedIncidents = (
  page: PageRef,
  state: PageState,
  ids: ReadonlySet<string>,
  perDay: ReadonlyMap<string, readonly number[]>,
): WriteOp[] => {
  const changed = [...ids].flatMap((id) => {
    const doc = state.incidents[id];
    return doc ? [doc] : [];
  });
  const items = changed.map(incidentItem);
  const months = new Set(items.flatMap((item) => item.months));
  return putIncidents(
    page,
    items,
    [...months].map((month) => [month, json(dailyCountsOf(month, perDay.get(month) ?? []))] as const),
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
