// Write builders of the list models. Lists are replaced whole on page events and rebuilds, and
// otherwise written item by item: their status and month lists all follow from the docs.
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

type MaintenanceItem = ListItem & { status: MaintenanceStatus };

/** Its place in its status's list, and none in the others. */
const placeByStatus = (keys: ReturnType<typeof maintenanceKeys>, item: MaintenanceItem): WriteOp[] =>
  MAINTENANCE_STATUSES.map((status) =>
    status === item.status
      ? { op: 'zadd', key: keys.status(status), score: listScore(item.startMs), member: item.id }
      : { op: 'zrem', key: keys.status(status), member: item.id },
  );

/**
 * Writes over what is stored: `edited` maintenances whole (leaving the months they were listed
 * under before), only the document and status of `moved` ones (the clock moved them), and the
 * counts of `months` (null: no maintenance overlaps it any more, so it is listed no more).
 */
export const putMaintenances = (
  page: PageRef,
  changes: Readonly<{
    edited: readonly (MaintenanceItem & { listedBefore: readonly string[] })[];
    moved: readonly MaintenanceItem[];
    months: readonly (readonly [month: string, body: string | null])[];
  }>,
): WriteOp[] => {
  const keys = maintenanceKeys(page);
  return [
    ...changes.edited.flatMap((item): WriteOp[] => [
      ...item.listedBefore
        .filter((month) => !item.months.includes(month))
        .map((month): WriteOp => ({ op: 'zrem', key: keys.month(month), member: item.id })),
      ...addItem(keys, item),
      ...placeByStatus(keys, item),
    ]),
    ...changes.moved.flatMap((item): WriteOp[] => [
      { op: 'hset', key: keys.docs, fields: [[item.id, item.json]] },
      ...placeByStatus(keys, item),
    ]),
    ...changes.months.flatMap(([month, body]): WriteOp[] =>
      body === null
        ? [
            { op: 'hdel', key: keys.counts, field: month },
            { op: 'srem', key: keys.months, member: month },
          ]
        : [...putCounts(keys, [[month, body]]), { op: 'sadd', key: keys.months, member: month }],
    ),
  ];
};
