// A monitor's failures (maximal runs of down checks) from its ordered checks, replayed from an
// anchor check.
import type { CheckStatus } from '../../src/events/check.ts';
import type { Interval } from '../types.ts';

export type TimedCheck = Readonly<{ at: number; position: bigint; status: CheckStatus }>;

export type Anchor = Readonly<{
  at: number;
  position: bigint;
  status: CheckStatus;
  downStart: number | null;
}>;

type TimelineReplay = Readonly<{
  closed: Interval[]; // failures that ended within the replayed span
  openDownStart: number | null; // a failure still running at the last check
  last: TimedCheck;
}>;

export const compareChecks = (a: TimedCheck, b: TimedCheck): number =>
  a.at - b.at || (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);

/** Replays `checks` (sorted by compareChecks, all after the anchor) from `anchor`. */
export const replayTimeline = (anchor: Anchor | null, checks: readonly TimedCheck[]): TimelineReplay => {
  const closed: Interval[] = [];
  let open = anchor?.status === 'down' ? (anchor.downStart ?? anchor.at) : null;
  let last: TimedCheck | null = anchor;
  for (const check of checks) {
    if (check.status === 'down') open ??= check.at;
    else if (open !== null) {
      if (check.at > open) closed.push({ start: open, end: check.at });
      open = null;
    }
    last = check;
  }
  if (last === null) throw new Error('replayTimeline needs an anchor or at least one check');
  return { closed, openDownStart: open, last: { at: last.at, position: last.position, status: last.status } };
};
