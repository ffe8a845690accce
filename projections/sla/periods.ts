// The calendar periods of an SLA report (sla-reports.md, "Periods"): a month `YYYY-MM`, a quarter
// `YYYY-Qn` or a year `YYYY`, taken in the page's zone, and how far back reports reach.
import { dayNumber, dayStart, localDayOf } from './zone.ts';

const DAY_MS = 86_400_000;

/** A period as its first month and its number of months (1, 3 or 12). */
export type Period = Readonly<{ label: string; year: number; month: number; months: 1 | 3 | 12 }>;

/** Years before the current local year whose reports are kept: January three years back on. */
const REACH_YEARS = 3;
const FIRST_YEAR = 2000;

const pad = (n: number): string => String(n).padStart(2, '0');
const monthLabel = (year: number, month: number): string => `${String(year)}-${pad(month)}`;

const monthPeriod = (year: number, month: number): Period => ({
  label: monthLabel(year, month),
  year,
  month,
  months: 1,
});
const quarterPeriod = (year: number, quarter: number): Period => ({
  label: `${String(year)}-Q${String(quarter)}`,
  year,
  month: quarter * 3 - 2,
  months: 3,
});
export const yearPeriod = (year: number): Period => ({ label: String(year), year, month: 1, months: 12 });

/** The period a label names, or null when it is none of the three forms. */
export const parsePeriod = (text: string): Period | null => {
  let match = /^(\d{4})-(\d{2})$/.exec(text);
  if (match) {
    const month = Number(match[2]);
    return month >= 1 && month <= 12 ? monthPeriod(Number(match[1]), month) : null;
  }
  match = /^(\d{4})-Q([1-4])$/.exec(text);
  if (match) return quarterPeriod(Number(match[1]), Number(match[2]));
  match = /^(\d{4})$/.exec(text);
  return match ? yearPeriod(Number(match[1])) : null;
};

/** The month after `year`-`month` + `count` − 1, as [year, month]. */
const addMonths = (year: number, month: number, count: number): [number, number] => {
  const index = year * 12 + month - 1 + count;
  return [Math.floor(index / 12), (index % 12) + 1];
};

/** The first local day of the period and the first local day after it. */
const periodDays = (period: Period): readonly [first: number, after: number] => {
  const [endYear, endMonth] = addMonths(period.year, period.month, period.months);
  return [dayNumber(period.year, period.month, 1), dayNumber(endYear, endMonth, 1)];
};

/** [start, end) of the period in UTC instants. */
export const periodBounds = (zone: string, period: Period): readonly [start: number, end: number] => {
  const [first, after] = periodDays(period);
  return [dayStart(zone, first), dayStart(zone, after)];
};

/** The months of a period, oldest first. */
export const monthsOf = (period: Period): Period[] =>
  Array.from({ length: period.months }, (_, i) => monthPeriod(...addMonths(period.year, period.month, i)));

/** The local month holding instant `t`. */
export const monthAt = (zone: string, t: number): Period => {
  const date = new Date(localDayOf(zone, t) * DAY_MS);
  return monthPeriod(date.getUTCFullYear(), date.getUTCMonth() + 1);
};

export const quarterOf = (month: Period): Period => quarterPeriod(month.year, Math.ceil(month.month / 3));

/** The first local year whose reports are kept at `now`. */
export const reachYear = (zone: string, now: number): number =>
  Math.max(FIRST_YEAR, monthAt(zone, now).year - REACH_YEARS);

/** Every month kept at `now`, oldest first, up to the current one. */
export const reachMonths = (zone: string, now: number): Period[] => {
  const current = monthAt(zone, now);
  const first = reachYear(zone, now);
  const count = (current.year - first) * 12 + current.month;
  return Array.from({ length: count }, (_, i) => monthPeriod(...addMonths(first, 1, i)));
};
