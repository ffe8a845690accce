// What a render reads of a page's maintenances: those it can show or the clock may move, those
// that changed, and the tallies of the months a changed one left or entered, through the indexes
// the batch keeps with each document (docs/read-models.md, "Maintenances a render reads").
import { daysOfMonth, monthsOfMaintenance } from '../../projections/lists/dailyCounts.ts';
import { maintenanceKeys } from '../../projections/lists/keys.ts';
import type { MonthTally, StoredMaintenanceLists } from '../../projections/lists/storedMaintenanceLists.ts';
import { monthBounds } from '../../projections/figures/calendar.ts';
import { pageStateKeys } from '../../projections/pageState/keys.ts';
import type { PageRef } from '../../projections/store/page.ts';
import type { MaintenanceStatus } from '../../projections/types.ts';
import {
  hashGetMany,
  hashLength,
  known,
  listRead,
  mapRead,
  tupleRead,
  zsetByScore,
  zsetCount,
  zsetScore,
  zsetScoredByScoreDesc,
  zsetSize,
  type Read,
  type Scored,
} from '../store/reads.ts';
import { SHOWN_ITEMS, tiesRead } from './shownItems.ts';

export type MaintenancesWanted = Readonly<{ page: PageRef; changed: readonly string[]; now: number }>;

export type MaintenanceProbe = Readonly<{
  /** Documents stored and indexed: a page of an earlier release has no index (it is read whole). */
  stored: number;
  indexed: number;
  /** What the stored lists show scheduled and in progress. */
  scheduled: string[];
  inProgress: string[];
  /** Every maintenance whose status may still move with the clock (and any dated after now). */
  unsettled: string[];
  /** The newest settled ones by latest change (the feeds) and the newest by start (the Statuspage list). */
  bySettled: Scored[];
  byStart: Scored[];
  /** Per changed maintenance: its stored list document, and its window now (null: empty). */
  listed: (string | null)[];
  windows: (readonly [start: number | null, end: number | null])[];
}>;

export const maintenanceProbeRead = ({ page, changed, now }: MaintenancesWanted): Read<MaintenanceProbe> => {
  const keys = pageStateKeys(page);
  const lists = maintenanceKeys(page);
  const all = (key: string) => zsetByScore(key, '-inf', '+inf');
  return mapRead(
    tupleRead([
      hashLength(keys.stateMaintenances),
      zsetSize(keys.maintenancesBySettled),
      all(lists.status('scheduled')),
      all(lists.status('in_progress')),
      zsetByScore(keys.maintenancesBySettled, `(${now}`, '+inf'),
      zsetScoredByScoreDesc(keys.maintenancesBySettled, now, '-inf', SHOWN_ITEMS),
      zsetScoredByScoreDesc(keys.maintenancesByStart, '+inf', '-inf', SHOWN_ITEMS),
      changed.length === 0 ? known([]) : hashGetMany(lists.docs, changed),
      listRead(
        changed.map((id) =>
          tupleRead([zsetScore(keys.windowsByStart, id), zsetScore(keys.windowsByEnd, id)]),
        ),
      ),
    ]),
    ([stored, indexed, scheduled, inProgress, unsettled, bySettled, byStart, listed, windows]) => ({
      stored,
      indexed,
      scheduled,
      inProgress,
      unsettled,
      bySettled,
      byStart,
      listed,
      windows,
    }),
  );
};

/** The ids the probe names: every one the render may show or move, and the changed ones. */
export const probedMaintenanceIds = (want: MaintenancesWanted, probe: MaintenanceProbe): string[] => [
  ...new Set([
    ...probe.scheduled,
    ...probe.inProgress,
    ...probe.unsettled,
    ...probe.bySettled.map(([id]) => id),
    ...probe.byStart.map(([id]) => id),
    ...want.changed,
  ]),
];

const listedMonthsOf = (text: string | null): string[] => {
  if (text === null) return [];
  const doc = JSON.parse(text) as { scheduled_start: string; scheduled_end: string };
  return monthsOfMaintenance({
    scheduledStart: Date.parse(doc.scheduled_start),
    scheduledEnd: Date.parse(doc.scheduled_end),
  });
};

const windowMonthsOf = ([start, end]: readonly [number | null, number | null]): string[] =>
  start === null || end === null ? [] : monthsOfMaintenance({ scheduledStart: start, scheduledEnd: end });

/** The months a changed maintenance left or entered: their counts and listing are written again. */
const monthsTouched = (probe: MaintenanceProbe): string[] =>
  [...new Set([...probe.listed.flatMap(listedMonthsOf), ...probe.windows.flatMap(windowMonthsOf)])].sort();

/** How many windows of `starts`/`ends` overlap [from, to): those starting before `to` less those ending by `from`. */
const overlapRead = (starts: string, ends: string, from: number, to: number): Read<number> =>
  mapRead(
    tupleRead([zsetCount(starts, '-inf', `(${to}`), zsetCount(ends, '-inf', from)]),
    ([started, ended]) => started - ended,
  );

/** A month's tally from the window indexes: a few counts per day, however many the month holds. */
const tallyRead = (page: PageRef, month: string): Read<MonthTally> => {
  const keys = pageStateKeys(page);
  const { start, end } = monthBounds(month);
  const day = ([from, to]: readonly [number, number]) =>
    mapRead(
      tupleRead([
        overlapRead(keys.windowsByStart, keys.windowsByEnd, from, to),
        overlapRead(keys.cancelledByStart, keys.cancelledByEnd, from, to),
      ]),
      ([windows, cancelled]) => windows - cancelled,
    );
  return mapRead(
    tupleRead([
      overlapRead(keys.windowsByStart, keys.windowsByEnd, start, end),
      listRead(daysOfMonth(month).map(day)),
    ]),
    ([overlapping, perDay]) => ({ listed: overlapping > 0, perDay }),
  );
};

export type MaintenanceExtra = Readonly<{ ties: string[]; months: string[]; tallies: MonthTally[] }>;

/** The second read: ties at the last shown place, and the tallies of the months changed ones touch. */
export const maintenanceExtraRead = (page: PageRef, probe: MaintenanceProbe): Read<MaintenanceExtra> => {
  const keys = pageStateKeys(page);
  const months = monthsTouched(probe);
  return mapRead(
    tupleRead([
      tiesRead(keys.maintenancesBySettled, probe.bySettled),
      tiesRead(keys.maintenancesByStart, probe.byStart),
      listRead(months.map((month) => tallyRead(page, month))),
    ]),
    ([settledTies, startTies, tallies]) => ({ ties: [...settledTies, ...startTies], months, tallies }),
  );
};

/** What the stored lists show, for renderChangedMaintenances. */
export const storedListsOf = (
  want: MaintenancesWanted,
  probe: MaintenanceProbe,
  extra: MaintenanceExtra,
): StoredMaintenanceLists => {
  const open = new Map<string, MaintenanceStatus>([
    ...probe.scheduled.map((id) => [id, 'scheduled'] as const),
    ...probe.inProgress.map((id) => [id, 'in_progress'] as const),
  ]);
  return {
    open,
    listedMonths: new Map(
      want.changed.map((id, i) => [id, listedMonthsOf(probe.listed[i] ?? null)] as const),
    ),
    months: new Map(
      extra.months.flatMap((month, i) => {
        const tally = extra.tallies[i];
        return tally ? [[month, tally] as const] : [];
      }),
    ),
  };
};
