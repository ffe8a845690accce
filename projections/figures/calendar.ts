// UTC calendar arithmetic on integers. Renders produce hundreds of dates per page (a year of
// daily_breakdown, 90 days of globalDaily), so this avoids a Date object per date.
import { DAY_MS } from '../../src/shared/time.ts';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
// Four digits whatever the year, so every month key is a valid `YYYY-MM` (monthBounds reads it back).
const pad4 = (n: number): string => String(n).padStart(4, '0');

/** Year, month (1–12) and day of the UTC day containing `ms` (Hinnant's civil_from_days). */
const civilOf = (ms: number): { year: number; month: number; day: number } => {
  const z = Math.floor(ms / DAY_MS) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yoe + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: doy - Math.floor((153 * mp + 2) / 5) + 1,
  };
};

/** `YYYY-MM-DD` of the UTC day containing `ms`. */
export const utcDate = (ms: number): string => {
  const { year, month, day } = civilOf(ms);
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}`;
};

/** A month as a running index (year × 12 + month − 1), so months can be iterated as integers. */
export const monthIndexOf = (ms: number): number => {
  const { year, month } = civilOf(ms);
  return year * 12 + month - 1;
};

export const formatMonthIndex = (index: number): string =>
  `${pad4(Math.floor(index / 12))}-${pad2((index % 12) + 1)}`;

export type MonthBounds = Readonly<{ month: string; start: number; end: number; days: number }>;

/**
 * The UTC bounds [start, end) of a `YYYY-MM` month.
 * @throws RangeError when `month` is not a real month in that form
 */
export const monthBounds = (month: string): MonthBounds => {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const year = Number(match?.[1]);
  const m = Number(match?.[2]);
  if (match === null || m < 1 || m > 12) throw new RangeError(`invalid month "${month}"`);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
  const startOf = (y: number, mo: number) => new Date(0).setUTCFullYear(y, mo - 1, 1);
  const start = startOf(year, m);
  const end = m === 12 ? startOf(year + 1, 1) : startOf(year, m + 1);
  return { month, start, end, days: (end - start) / DAY_MS };
};

/** `YYYY-MM-DD` of the i-th day (0-based) of a month. */
export const dayOfMonth = (month: string, index: number): string => `${month}-${pad2(index + 1)}`;
