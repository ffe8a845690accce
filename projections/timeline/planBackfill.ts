// Plans a monitor's checks when some are older than the recent checks kept in Redis (a backfill
// of any age), replaying only the failures the backfill can touch.
import { compareChecks, replayTimeline, type Anchor, type TimedCheck } from './timeline.ts';
import { countChecks } from '../buckets/writes.ts';
import type { MonitorRef } from '../store/monitor.ts';
import type { TimelineHead } from './codec.ts';
import { addFailure, dropFailuresBetween, dropFailuresFrom, summarizeFailures } from './writes.ts';
import { recentAndHead, type Check, type ChecksPlan, type MonitorChecks } from './planChecks.ts';
import { must } from '../../src/shared/must.ts';

/** The log around a backfill (see above); `resync` null when every check after it is down. */
export type BackfillSpan = Readonly<{
  anchor: TimedCheck | null;
  anchorRunStart: number | null;
  window: readonly TimedCheck[];
  resync: TimedCheck | null;
}>;

export const planBackfill = (
  tag: string,
  m: MonitorChecks & { head: TimelineHead },
  span: BackfillSpan,
  now: number,
): ChecksPlan => {
  const monitor: MonitorRef = { tag, monitorId: m.monitorId };
  const { head } = m;
  const writes = countChecks(monitor, m.checks, now, head.last.at);
  const sorted = [...m.checks].sort(compareChecks);
  const late = sorted.filter((c) => compareChecks(c, head.last) < 0);
  const inOrder = sorted.filter((c) => compareChecks(c, head.last) > 0);
  const { anchor, resync } = span;
  const start: Anchor | null = anchor && {
    ...anchor,
    downStart: anchor.status === 'down' ? (span.anchorRunStart ?? anchor.at) : null,
  };
  const redoFrom = start === null ? Number.NEGATIVE_INFINITY : (start.downStart ?? start.at);
  const merged = (extra: readonly Check[]) => [...span.window, ...late, ...extra].sort(compareChecks);

  const earliest = must(sorted[0], "a backfilled monitor's earliest check").at;
  let next: TimelineHead;
  if (resync !== null) {
    // The resync check is not down: the replay ends with no failure open, and nothing after it moves.
    const replay = replayTimeline(start, merged([]));
    writes.push(dropFailuresBetween(monitor, redoFrom, resync.at));
    for (const failure of replay.closed) writes.push(addFailure(monitor, failure));
    const after =
      inOrder.length === 0 ? null : replayTimeline({ ...head.last, downStart: head.openDownStart }, inOrder);
    for (const failure of after?.closed ?? []) writes.push(addFailure(monitor, failure));
    next = {
      first: Math.min(head.first, earliest),
      last: after?.last ?? head.last,
      openDownStart: after === null ? head.openDownStart : after.openDownStart,
    };
  } else {
    // Down from the latest backfilled check to the latest check: replay to the end.
    const replay = replayTimeline(start, merged(inOrder));
    writes.push(dropFailuresFrom(monitor, redoFrom));
    for (const failure of replay.closed) writes.push(addFailure(monitor, failure));
    const last = compareChecks(head.last, replay.last) > 0 ? head.last : replay.last;
    next = { first: Math.min(head.first, earliest), last, openDownStart: replay.openDownStart };
  }
  // Failures changed between the redo point (the earliest check without one) and the last check.
  const from = Math.max(redoFrom, Math.min(next.first, earliest));
  writes.push(...summarizeFailures(monitor, from, next.last.at, next.last.at));
  writes.push(...recentAndHead(monitor, sorted, next, head));
  return { writes, timelineChanged: true, statusChanged: true };
};
