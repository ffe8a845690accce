// Maintenances are rendered whole whenever one changes or the clock moves one across a window
// boundary: their status, their status lists and their month lists all follow from the doc
// and the clock. The months written are remembered so the next render can clear them.
import { maintenanceDailyCounts, monthsOfMaintenance } from '../../projections/render/dailyCounts.ts';
import { maintenanceJson, maintenanceStatus } from '../../projections/render/maintenanceJson.ts';
import type { MaintenanceStatus, PageState } from '../../projections/types.ts';
import type { pageKeys } from '../readModels/keys.ts';
import { toBytes } from '../readModels/bytes.ts';
import type { CommandList } from './commands.ts';

const STATUSES: readonly MaintenanceStatus[] = ['scheduled', 'in_progress', 'completed', 'cancelled'];

/** Appends the writes that replace every maintenance output of the page. */
export const renderMaintenances = (
  out: CommandList,
  keys: ReturnType<typeof pageKeys>,
  state: PageState,
  previousMonths: readonly string[],
  now: number,
): void => {
  const docs = Object.values(state.maintenances);
  const months = new Set(docs.flatMap(monthsOfMaintenance));
  const stale = new Set([...previousMonths, ...months]);
  out.push(
    'DEL',
    keys.maintenanceList,
    keys.maintenanceDocs,
    keys.maintenanceCounts,
    keys.maintenanceMonths,
    ...STATUSES.map(keys.maintenanceStatus),
    ...[...stale].map(keys.maintenanceMonth),
  );
  for (const doc of docs) {
    const score = -doc.scheduledStart;
    out.push('HSET', keys.maintenanceDocs, doc.id, JSON.stringify(maintenanceJson(doc, now)));
    out.push('ZADD', keys.maintenanceList, score, doc.id);
    out.push('ZADD', keys.maintenanceStatus(maintenanceStatus(doc, now)), score, doc.id);
    for (const month of monthsOfMaintenance(doc))
      out.push('ZADD', keys.maintenanceMonth(month), score, doc.id);
  }
  for (const month of months) {
    out.push(
      'HSET',
      keys.maintenanceCounts,
      month,
      toBytes(JSON.stringify(maintenanceDailyCounts(docs, month))),
    );
    out.push('SADD', keys.maintenanceMonths, month);
  }
};
