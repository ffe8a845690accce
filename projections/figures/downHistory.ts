// Down time and failure counts of a monitor whose failures are only partly loaded: whole days
// from their summaries, the rest from the failures loaded.
import { DAY_MS } from '../../src/shared/time.ts';
import type { DownSummary, MonitorSnapshot } from '../types.ts';
import { downMs, failuresOverlapping, firstEndingAfter, firstStartingFrom } from './downtime.ts';

export type Timeline = Pick<MonitorSnapshot, 'down' | 'openDownStart' | 'summary'>;

/** A figure asked for a part of the timeline whose failures were neither loaded nor summarised. */
class FailuresNotLoaded extends Error {
  override readonly name = 'FailuresNotLoaded';
}

type Piece = Readonly<{ from: number; to: number; exact: boolean }>;

const exactRangeAt = (summary: DownSummary, t: number) => summary.exact.find(([f, to]) => f <= t && t < to);

/** [from, to) cut into parts that each lie in an exact range or are a full UTC day. */
function* pieces(summary: DownSummary, from: number, to: number): Generator<Piece> {
  let a = from;
  while (a < to) {
    const range = exactRangeAt(summary, a);
    if (range !== undefined) {
      const b = Math.min(to, range[1]);
      yield { from: a, to: b, exact: true };
      a = b;
    } else if (a % DAY_MS === 0 && a + DAY_MS <= to) {
      yield { from: a, to: a + DAY_MS, exact: false };
      a += DAY_MS;
    } else {
      throw new FailuresNotLoaded(`failures of [${String(a)}, ${String(to)}) were not loaded`);
    }
  }
}

/** Down milliseconds inside [from, min(to, now)); an open failure runs until now. */
export const historyDownMs = (t: Timeline, from: number, to: number, nowMs: number): number => {
  const { summary } = t;
  if (summary === undefined) return downMs(t, from, to, nowMs);
  const end = Math.min(to, nowMs);
  if (end <= from) return 0;
  let total = downMs({ down: [], openDownStart: t.openDownStart }, from, end, nowMs);
  for (const p of pieces(summary, from, end))
    total += p.exact
      ? downMs({ down: t.down, openDownStart: null }, p.from, p.to, nowMs)
      : (summary.days.get(p.from)?.ms ?? 0);
  return total;
};

/** Failures (closed, or open until now) overlapping [from, to): start < to and end > from. */
export const historyFailures = (t: Timeline, from: number, to: number, nowMs: number): number => {
  const { summary, down } = t;
  if (summary === undefined) return failuresOverlapping(t, from, to, nowMs);
  if (exactRangeAt(summary, from) === undefined)
    throw new FailuresNotLoaded(`the failure running at ${String(from)} was not loaded`);
  const running = down[firstEndingAfter(down, from)];
  let count = running !== undefined && running.start < from ? 1 : 0;
  for (const p of pieces(summary, from, to))
    count += p.exact
      ? firstStartingFrom(down, p.to) - firstStartingFrom(down, p.from)
      : (summary.days.get(p.from)?.starts ?? 0);
  const open = t.openDownStart !== null && t.openDownStart < to && nowMs > from ? 1 : 0;
  return count + open;
};

/** The start of the first closed failure ending after `from` (undefined: none). */
export const firstFailureStart = (t: Timeline, from: number): number | undefined => {
  const { summary, down } = t;
  if (summary === undefined) return down[firstEndingAfter(down, from)]?.start;
  // Nothing is known past the last summarised day and the last exact range.
  const horizon = Math.max(
    ...summary.exact.map(([, to]) => to),
    ...[...summary.days.keys()].map((day) => day + DAY_MS),
  );
  for (const p of pieces(summary, from, Math.max(from, horizon))) {
    if (p.exact) {
      const first = down[firstEndingAfter(down, p.from)];
      if (first !== undefined && first.start < p.to) return first.start;
    } else {
      const day = summary.days.get(p.from);
      if (day !== undefined && day.starts > 0) return day.firstStart;
    }
  }
  return undefined;
};
