// Down time and failure counts of one monitor over a time range. Closed failures are sorted and
// disjoint, so their ends are sorted too: binary searches find the overlapping run in O(log n).
import type { Interval, MonitorSnapshot } from '../types.ts';

/** A monitor's failures: the closed ones (sorted, disjoint) and the start of an open one. */
export type Failures = Pick<MonitorSnapshot, 'down' | 'openDownStart'>;

/** Index of the first interval ending after `t` (intervals.length when none). */
export const firstEndingAfter = (intervals: readonly Interval[], t: number): number => {
  let lo = 0;
  let hi = intervals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((intervals[mid]?.end ?? Infinity) > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
};

/** Index of the first interval starting at or after `t` (intervals.length when none). */
export const firstStartingFrom = (intervals: readonly Interval[], t: number): number => {
  let lo = 0;
  let hi = intervals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((intervals[mid]?.start ?? Infinity) >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
};

/** Down milliseconds inside [from, min(to, now)); an open failure runs until now. */
export const downMs = (
  { down, openDownStart }: Failures,
  from: number,
  to: number,
  nowMs: number,
): number => {
  const end = Math.min(to, nowMs);
  if (end <= from) return 0;
  let total = 0;
  for (let i = firstEndingAfter(down, from); i < down.length; i++) {
    const interval = down[i];
    if (interval === undefined || interval.start >= end) break;
    total += Math.min(interval.end, end) - Math.max(interval.start, from);
  }
  if (openDownStart !== null && openDownStart < end) total += end - Math.max(openDownStart, from);
  return total;
};

/** Failures (closed, or open until now) overlapping [from, to): start < to and end > from. */
export const failuresOverlapping = (
  { down, openDownStart }: Failures,
  from: number,
  to: number,
  nowMs: number,
): number => {
  const closed = Math.max(0, firstStartingFrom(down, to) - firstEndingAfter(down, from));
  const open = openDownStart !== null && openDownStart < to && nowMs > from ? 1 : 0;
  return closed + open;
};
