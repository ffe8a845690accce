// Write builders of the page-state model.
import type { IncidentDoc, MaintenanceDoc, PageState } from '../types.ts';
import type { PageRef } from '../store/page.ts';
import { setOp, type WriteOp } from '../store/writeOps.ts';
import { encodeIncident, encodeMaintenance, encodePageCore, encodeUpdated } from './codec.ts';
import { pageStateKeys } from './keys.ts';
import { incidentUpdatedAt } from '../lists/incidentUpdatedAt.ts';
import { maintenanceSettledAt } from '../lists/maintenanceUpdatedAt.ts';

export const putPageCore = (page: PageRef, state: PageState): WriteOp =>
  setOp(pageStateKeys(page).state, encodePageCore(state));

const putIncidentDocs = (page: PageRef, docs: readonly IncidentDoc[]): WriteOp[] => {
  const keys = pageStateKeys(page);
  return [
    { op: 'hset', key: keys.stateIncidents, fields: docs.map((doc) => [doc.id, encodeIncident(doc)]) },
    ...docs.flatMap((doc): WriteOp[] => [
      { op: 'zadd', key: keys.incidentsByStart, score: doc.startedAt, member: doc.id },
      { op: 'zadd', key: keys.incidentsByUpdate, score: incidentUpdatedAt(doc), member: doc.id },
      { op: doc.state === 'resolved' ? 'srem' : 'sadd', key: keys.incidentsOpen, member: doc.id },
    ]),
  ];
};

/** A zadd where `score` is given, else a zrem: the member is indexed only where it belongs. */
const placeIn = (key: string, member: string, score: number | null): WriteOp =>
  score === null ? { op: 'zrem', key, member } : { op: 'zadd', key, score, member };

const putMaintenanceDocs = (page: PageRef, docs: readonly MaintenanceDoc[]): WriteOp[] => {
  const keys = pageStateKeys(page);
  return [
    { op: 'hset', key: keys.stateMaintenances, fields: docs.map((doc) => [doc.id, encodeMaintenance(doc)]) },
    ...docs.flatMap((doc): WriteOp[] => {
      const window = doc.scheduledEnd > doc.scheduledStart;
      const off = window && doc.cancelled;
      return [
        placeIn(keys.maintenancesByStart, doc.id, doc.scheduledStart),
        placeIn(keys.maintenancesBySettled, doc.id, maintenanceSettledAt(doc)),
        placeIn(keys.windowsByStart, doc.id, window ? doc.scheduledStart : null),
        placeIn(keys.windowsByEnd, doc.id, window ? doc.scheduledEnd : null),
        placeIn(keys.cancelledByStart, doc.id, off ? doc.scheduledStart : null),
        placeIn(keys.cancelledByEnd, doc.id, off ? doc.scheduledEnd : null),
      ];
    }),
  ];
};

/** A deleted page keeps no incident or maintenance document. */
const dropPageDocs = (page: PageRef): WriteOp[] => {
  const keys = pageStateKeys(page);
  return [
    { op: 'del', keys: [keys.stateIncidents, keys.stateMaintenances] },
    { op: 'del', keys: [keys.incidentsOpen, keys.incidentsByStart, keys.incidentsByUpdate] },
    {
      op: 'del',
      keys: [
        keys.maintenancesByStart,
        keys.maintenancesBySettled,
        keys.windowsByStart,
        keys.windowsByEnd,
        keys.cancelledByStart,
        keys.cancelledByEnd,
      ],
    },
  ];
};

export const putUpdatedAt = (page: PageRef, at: number): WriteOp =>
  setOp(pageStateKeys(page).updated, encodeUpdated(at));

const changedDocs = <T>(
  before: Readonly<Record<string, T>>,
  after: Readonly<Record<string, T>>,
  all: boolean,
): T[] => Object.entries(after).flatMap(([id, doc]) => (all || before[id] !== doc ? [doc] : []));

/**
 * The writes that store `after`, a page document evolved from `before` (as loaded: documents
 * are compared by identity, and evolving a document makes a new object). `wiped`: the page was
 * deleted on the way, so its stored documents go; `legacy`: `before` came from a core that still
 * held every document, which now move to their hashes.
 */
export const putPageState = (
  page: PageRef,
  before: PageState | null,
  after: PageState,
  how: Readonly<{ wiped: boolean; legacy: boolean }>,
): WriteOp[] => {
  const all = how.wiped || how.legacy;
  const incidents = changedDocs(before?.incidents ?? {}, after.incidents, all);
  const maintenances = changedDocs(before?.maintenances ?? {}, after.maintenances, all);
  return [
    ...(how.wiped ? dropPageDocs(page) : []),
    putPageCore(page, after),
    ...(incidents.length > 0 ? putIncidentDocs(page, incidents) : []),
    ...(maintenances.length > 0 ? putMaintenanceDocs(page, maintenances) : []),
  ];
};
