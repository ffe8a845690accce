// Renders the incident and maintenance lists: whole on page events and rebuilds, else by the item
// that changed (and, for maintenances, those whose status the clock moved).
import {
  incidentDailyCounts,
  dailyCountsOf,
  maintenanceDailyCounts,
  monthsOfIncident,
  monthsOfMaintenance,
} from './dailyCounts.ts';
import { incidentJson } from './incidentJson.ts';
import { maintenanceJson, maintenanceStatus } from './maintenanceJson.ts';
import type { IncidentDoc, MaintenanceDoc, PageState } from '../types.ts';
import type { ListItem } from './codec.ts';
import { putIncidents, putMaintenances, replaceIncidents, replaceMaintenances } from './writes.ts';
import type { StoredMaintenanceLists } from './storedMaintenanceLists.ts';
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

const maintenanceItem = (doc: MaintenanceDoc, now: number) => ({
  id: doc.id,
  startMs: doc.scheduledStart,
  json: json(maintenanceJson(doc, now)),
  months: monthsOfMaintenance(doc),
  status: maintenanceStatus(doc, now),
});

export const renderMaintenances = (
  page: PageRef,
  state: PageState,
  previousMonths: readonly string[],
  now: number,
): WriteOp[] => {
  const docs = Object.values(state.maintenances);
  const items = docs.map((doc) => maintenanceItem(doc, now));
  const months = new Set(items.flatMap((item) => item.months));
  return replaceMaintenances(
    page,
    items,
    [...months].map((month) => [month, json(maintenanceDailyCounts(docs, month))] as const),
    previousMonths,
  );
};

/** Whether the clock moved a maintenance's status away from what the stored lists show. */
const movedByClock = (doc: MaintenanceDoc, stored: StoredMaintenanceLists, now: number): boolean => {
  const status = maintenanceStatus(doc, now);
  const shown = stored.open.get(doc.id);
  return shown === undefined ? status === 'scheduled' || status === 'in_progress' : shown !== status;
};

/**
 * Only the maintenances `ids` changed: their documents, list places and the counts of the months
 * they left or entered are written; and the documents and status places of those whose status the
 * clock moved since the last render. `state` holds at least every maintenance the stored lists
 * show scheduled or in progress and every one the clock may move (maintenanceSettledAt after now).
 */
export const renderChangedMaintenances = (
  page: PageRef,
  state: PageState,
  { ids, stored, now }: Readonly<{ ids: ReadonlySet<string>; stored: StoredMaintenanceLists; now: number }>,
): WriteOp[] => {
  const docs = Object.values(state.maintenances);
  const edited = docs.filter((doc) => ids.has(doc.id));
  const moved = docs.filter((doc) => !ids.has(doc.id) && movedByClock(doc, stored, now));
  return putMaintenances(page, {
    edited: edited.map((doc) => ({
      ...maintenanceItem(doc, now),
      listedBefore: stored.listedMonths.get(doc.id) ?? [],
    })),
    moved: moved.map((doc) => maintenanceItem(doc, now)),
    months: [...stored.months].map(
      ([month, tally]) => [month, tally.listed ? json(dailyCountsOf(month, tally.perDay)) : null] as const,
    ),
  });
};
