// Write builders of the list models. Lists are replaced whole whenever one item changes (or the
// clock moves a maintenance's status): their status and month lists all follow from the docs.
import type { MaintenanceStatus } from '../types.ts';
import { toBytes } from '../store/bytes.ts';
import type { PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { listScore, MAINTENANCE_STATUSES, type ListItem } from './codec.ts';
import { incidentKeys, maintenanceKeys, type ListKeys } from './keys.ts';

/** month → body of the daily-counts response (only months with at least one item). */
type MonthCounts = readonly (readonly [month: string, body: string])[];

const addItem = (keys: ListKeys, item: ListItem, extra: readonly string[] = []): WriteOp[] => {
  const score = listScore(item.startMs);
  return [
    { op: 'hset', key: keys.docs, fields: [[item.id, item.json]] },
    { op: 'zadd', key: keys.list, score, member: item.id },
    ...extra.map((key): WriteOp => ({ op: 'zadd', key, score, member: item.id })),
    ...item.months.map((month): WriteOp => ({ op: 'zadd', key: keys.month(month), score, member: item.id })),
  ];
};

const putCounts = (keys: ListKeys, counts: MonthCounts): WriteOp[] =>
  counts.map(([month, body]) => ({ op: 'hset', key: keys.counts, fields: [[month, toBytes(body)]] }));

export const replaceIncidents = (
  page: PageRef,
  items: readonly ListItem[],
  counts: MonthCounts,
): WriteOp[] => {
  const keys = incidentKeys(page);
  const months = counts.map(([month]) => month);
  return [
    { op: 'del', keys: [keys.list, keys.docs, keys.counts, ...months.map(keys.month)] },
    ...items.flatMap((item) => addItem(keys, item)),
    ...putCounts(keys, counts),
  ];
};

/** Writes these incidents' documents and list places, and these months' counts, over what is stored. */
export const putIncidents = (page: PageRef, items: readonly ListItem[], counts: MonthCounts): WriteOp[] => {
  const keys = incidentKeys(page);
  return [...items.flatMap((item) => addItem(keys, item)), ...putCounts(keys, counts)];
};

/** `previousMonths`: the months the last render wrote (they may have no maintenance now). */
export const replaceMaintenances = (
  page: PageRef,
  items: readonly (ListItem & { status: MaintenanceStatus })[],
  counts: MonthCounts,
  previousMonths: readonly string[],
): WriteOp[] => {
  const keys = maintenanceKeys(page);
  const months = counts.map(([month]) => month);
  const stale = new Set([...previousMonths, ...months]);
  return [
    {
      op: 'del',
      keys: [
        keys.list,
        keys.docs,
        keys.counts,
        keys.months,
        ...MAINTENANCE_STATUSES.map(keys.status),
        ...[...stale].map(keys.month),
      ],
    },
    ...items.flatMap((item) => addItem(keys, item, [keys.status(item.status)])),
    ...counts.flatMap(([month, body]): WriteOp[] => [
      ...putCounts(keys, [[month, body]]),
      { op: 'sadd', key: keys.months, member: month },
    ]),
  ];
};
