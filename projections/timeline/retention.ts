// How long recent checks are kept, and so which hour sets can hold them. Trimming is relative to
// the monitor's latest check, not to the clock: a monitor that stops reporting keeps its last
// day of checks (and the anchor) for a late check that may still come.
import { HOUR_MS } from '../../src/shared/time.ts';
import { recentHourOf, type TimelineHead } from './codec.ts';

/** How far back checks are kept for late arrivals: the 24 h of decisions.md plus a margin. */
const RECENT_MS = 25 * HOUR_MS;

/** Checks before this are dropped, but the newest of them (the anchor). */
export const recentCutoff = (head: TimelineHead): number => head.last.at - RECENT_MS;

/** The hours from `from` to `to`, both included. */
const hoursBetween = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Every hour whose set can hold a check while `head` is the latest (the anchor aside). */
export const recentHours = (head: TimelineHead): number[] =>
  hoursBetween(recentHourOf(recentCutoff(head)), recentHourOf(head.last.at));
