// Daily-counts responses of one month, and the months an item belongs to (the month filters and
// the per-month counts the projector keeps). Every day of the month is present, keys ascending.
import { DAY_MS } from '../../src/shared/time.ts';
import {
  dayOfMonth,
  formatMonthIndex,
  monthBounds,
  monthIndexOf,
  type MonthBounds,
} from '../figures/calendar.ts';
import type { DailyCounts } from '../../src/contract/responseSchemas.ts';
import type { IncidentDoc, MaintenanceDoc } from '../types.ts';

const countsJson = (bounds: MonthBounds, perDay: readonly number[]): DailyCounts => {
  const counts: Record<string, number> = {};
  for (let i = 0; i < bounds.days; i++) counts[dayOfMonth(bounds.month, i)] = perDay[i] ?? 0;
  return {
    counts,
    start_date: dayOfMonth(bounds.month, 0),
    end_date: dayOfMonth(bounds.month, bounds.days - 1),
  };
};

/** @throws RangeError when `month` is not a real YYYY-MM month */
export const incidentDailyCounts = (docs: Iterable<IncidentDoc>, month: string): DailyCounts => {
  const bounds = monthBounds(month);
  const perDay = new Array<number>(bounds.days).fill(0);
  for (const doc of docs) {
    if (doc.startedAt < bounds.start || doc.startedAt >= bounds.end) continue;
    const i = Math.floor((doc.startedAt - bounds.start) / DAY_MS);
    perDay[i] = (perDay[i] ?? 0) + 1;
  }
  return countsJson(bounds, perDay);
};

/** The response from counts already made per day (the first of the month first). @throws RangeError on a bad month */
export const dailyCountsOf = (month: string, perDay: readonly number[]): DailyCounts =>
  countsJson(monthBounds(month), perDay);

/** The [start, end) of each day of a month, for counting per day elsewhere. @throws RangeError on a bad month */
export const daysOfMonth = (month: string): (readonly [start: number, end: number])[] => {
  const bounds = monthBounds(month);
  return Array.from({ length: bounds.days }, (_, i) => [
    bounds.start + i * DAY_MS,
    bounds.start + (i + 1) * DAY_MS,
  ]);
};

/** Every day a non-cancelled window [start, end) overlaps. @throws RangeError on a bad month */
export const maintenanceDailyCounts = (docs: Iterable<MaintenanceDoc>, month: string): DailyCounts => {
  const bounds = monthBounds(month);
  const perDay = new Array<number>(bounds.days).fill(0);
  for (const doc of docs) {
    if (doc.cancelled || doc.scheduledStart >= bounds.end || doc.scheduledEnd <= bounds.start) continue;
    if (doc.scheduledEnd <= doc.scheduledStart) continue;
    const first = Math.max(0, Math.floor((doc.scheduledStart - bounds.start) / DAY_MS));
    const last = Math.min(bounds.days - 1, Math.ceil((doc.scheduledEnd - bounds.start) / DAY_MS) - 1);
    for (let i = first; i <= last; i++) perDay[i] = (perDay[i] ?? 0) + 1;
  }
  return countsJson(bounds, perDay);
};

/** The month of started_at: the incident filter and counts of that month hold it. */
export const monthsOfIncident = (doc: IncidentDoc): string[] => [
  formatMonthIndex(monthIndexOf(doc.startedAt)),
];

/** Every month the window [start, end) overlaps, whatever the status (the filter shows cancelled ones too). */
export const monthsOfMaintenance = (
  doc: Pick<MaintenanceDoc, 'scheduledStart' | 'scheduledEnd'>,
): string[] => {
  if (doc.scheduledEnd <= doc.scheduledStart) return [];
  const months: string[] = [];
  const last = monthIndexOf(doc.scheduledEnd - 1);
  for (let m = monthIndexOf(doc.scheduledStart); m <= last; m++) months.push(formatMonthIndex(m));
  return months;
};
