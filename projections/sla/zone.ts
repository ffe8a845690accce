// Local calendar days of an IANA time zone as UTC instants, with the runtime's own zone data
// (Intl), so a month with a DST change is 743 or 745 hours long and odd offsets (+05:45, −03:30)
// need nothing special. Day starts are memoised per zone: a report asks for the same days often.
import { must } from '../../src/shared/must.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (zone: string): Intl.DateTimeFormat => {
  let found = formatters.get(zone);
  if (found === undefined) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, found);
  }
  return found;
};

/** The zone's offset from UTC at instant `t`, in ms (whole seconds: the zone's wall clock). */
const offsetAt = (zone: string, t: number): number => {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(t))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    must(parts['year'], 'the year of a zoned date'),
    must(parts['month'], 'the month of a zoned date') - 1,
    parts['day'],
    parts['hour'],
    parts['minute'],
    parts['second'],
  );
  return wall - (t - (((t % 1000) + 1000) % 1000));
};

/** The local day number (days since 1970-01-01 on the zone's calendar) holding instant `t`. */
export const localDayOf = (zone: string, t: number): number => Math.floor((t + offsetAt(zone, t)) / DAY_MS);

const memo = new Map<string, number>();
const MEMO_LIMIT = 200_000;

const computeDayStart = (zone: string, day: number): number => {
  const wall = day * DAY_MS; // local midnight as if the zone were UTC
  const offsets = new Set([-18, 0, 18].map((h) => offsetAt(zone, wall + h * HOUR_MS)));
  const exact = [...offsets].map((o) => wall - o).filter((t) => wall - offsetAt(zone, t) === t);
  if (exact.length > 0) return Math.min(...exact);
  // Midnight does not exist (a DST gap at midnight): the day starts at the transition.
  let low = wall - Math.max(...offsets); // still the day before
  let high = wall - Math.min(...offsets); // already this day
  if (localDayOf(zone, low) >= day) low -= DAY_MS;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (localDayOf(zone, mid) >= day) high = mid;
    else low = mid;
  }
  return high;
};

/** The first instant of local day `day` (its midnight, or the end of a DST gap that skips it). */
export const dayStart = (zone: string, day: number): number => {
  const key = `${zone}|${String(day)}`;
  let found = memo.get(key);
  if (found === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    found = computeDayStart(zone, day);
    memo.set(key, found);
  }
  return found;
};

/** The local day number of a calendar date (month 1–12). */
export const dayNumber = (year: number, month: number, day: number): number =>
  Date.UTC(year, month - 1, day) / DAY_MS;

/** `YYYY-MM-DD` of a local day number. */
export const dateLabel = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
