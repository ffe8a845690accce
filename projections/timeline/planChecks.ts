// Plans one monitor's checks of a batch (pure): its buckets and its timeline, replayed from the
// latest check or, for a late check, from the recent checks around it.
import { DAY_MS } from '../../src/shared/time.ts';
import { compareChecks, replayTimeline, type Anchor, type TimedCheck } from './timeline.ts';
import type { Interval } from '../types.ts';
import { must } from '../../src/shared/must.ts';
import { countChecks } from '../buckets/writes.ts';
import type { MonitorRef } from '../store/monitor.ts';
import type { WriteOp } from '../store/writeOps.ts';
import type { TimelineHead } from './codec.ts';
import {
  addFailure,
  addRecentCheck,
  dropFailuresFrom,
  keepRecentFrom,
  putHead,
  summarizeFailures,
} from './writes.ts';
import { recentCutoff } from './retention.ts';

/** How far back a late check looks for the failure it may extend. */
export const FAILURE_LOOKBACK_MS = 400 * DAY_MS;

/** A check of a batch: what the timeline replays, with its response time for the buckets. */
export type Check = TimedCheck & Readonly<{ responseTimeMs: number }>;

export type MonitorChecks = Readonly<{ monitorId: number; head: TimelineHead | null; checks: Check[] }>;

/** What a late check needs loaded: recent checks around the earliest one, and the failures after it. */
export type LateSpan = Readonly<{ recent: readonly TimedCheck[]; failures: readonly Interval[] }>;

/** `statusChanged`: the monitor's latest status (what the status outputs show) is not what it was. */
export type ChecksPlan = Readonly<{ writes: WriteOp[]; timelineChanged: boolean; statusChanged: boolean }>;

export const earliestCheck = (checks: readonly Check[]): Check =>
  checks.reduce((a, b) => (compareChecks(a, b) <= 0 ? a : b));

export const isLate = (m: MonitorChecks): boolean =>
  m.head !== null && m.checks.some((c) => m.head !== null && compareChecks(c, m.head.last) < 0);

/** The start of the failure that contains the down check at `at`. */
const findFailure = (failures: readonly Interval[], head: TimelineHead, at: number): number => {
  if (head.openDownStart !== null && head.openDownStart <= at) return head.openDownStart;
  const containing = failures.filter((f) => f.start <= at && f.end > at).at(-1);
  return containing?.start ?? at;
};

/**
 * The batch's checks a later late arrival could need (and one older anchor), then the new head;
 * `previous` is the head Redis held before the batch.
 */
export const recentAndHead = (
  monitor: MonitorRef,
  sorted: readonly Check[],
  head: TimelineHead,
  previous: TimelineHead | null,
): WriteOp[] => {
  const keepFrom = recentCutoff(head);
  const kept = sorted.filter(
    (c, i) => c.at >= keepFrom || (sorted[i + 1]?.at ?? Number.POSITIVE_INFINITY) >= keepFrom,
  );
  return [
    ...kept.map((c) => addRecentCheck(monitor, c)),
    keepRecentFrom(monitor, head, previous, kept),
    ...putHead(monitor, head),
  ];
};

type Replay = Readonly<{ anchor: Anchor | null; checks: TimedCheck[]; redoFrom: number | null }>;

/** Where the timeline replays from; null when every check is too late for it. */
const replayOf = (head: TimelineHead | null, sorted: Check[], span: LateSpan | undefined): Replay | null => {
  if (head === null) return { anchor: null, checks: sorted, redoFrom: null };
  if (span === undefined)
    return { anchor: { ...head.last, downStart: head.openDownStart }, checks: sorted, redoFrom: null };
  const first = must(sorted[0], 'the earliest check');
  // Checks at the same instant as the earliest late one may sit on either side of it.
  const around = [...span.recent].sort(compareChecks);
  const before = around.filter((c) => compareChecks(c, first) < 0).at(-1) ?? null;
  const after = around.filter((c) => compareChecks(c, first) > 0);
  // Older than the recent checks kept: buckets only (decisions.md guarantees 24 h).
  if (before === null && head.first < first.at) return null;
  const failure = before?.status === 'down' ? findFailure(span.failures, head, before.at) : null;
  return {
    anchor: before ? { ...before, downStart: failure } : null,
    checks: [...after, ...sorted].sort(compareChecks),
    redoFrom: before === null ? Number.NEGATIVE_INFINITY : (failure ?? before.at + 1),
  };
};

/** The writes that project `m.checks`; `span` must be given when some check is late. */
export const planChecks = (
  tag: string,
  m: MonitorChecks,
  span: LateSpan | undefined,
  now: number,
): ChecksPlan => {
  const monitor: MonitorRef = { tag, monitorId: m.monitorId };
  const writes = countChecks(monitor, m.checks, now, m.head?.last.at ?? null);
  const sorted = [...m.checks].sort(compareChecks);
  const head = m.head;
  const replay = replayOf(head, sorted, span);
  if (replay === null) return { writes, timelineChanged: false, statusChanged: false };

  const result = replayTimeline(replay.anchor, replay.checks);
  if (replay.redoFrom !== null) writes.push(dropFailuresFrom(monitor, replay.redoFrom));
  for (const failure of result.closed) writes.push(addFailure(monitor, failure));

  const earliest = must(sorted[0], 'the earliest check').at;
  const first = Math.min(head?.first ?? Number.POSITIVE_INFINITY, earliest);
  const last = head !== null && compareChecks(head.last, result.last) > 0 ? head.last : result.last;
  if (replay.redoFrom !== null || result.closed.length > 0) {
    // Every failure dropped or added lies between the redo point (or the earliest check) and the last check.
    const from = Math.min(replay.redoFrom ?? Infinity, earliest, ...result.closed.map((f) => f.start));
    writes.push(...summarizeFailures(monitor, Math.max(from, first), last.at, last.at));
  }
  writes.push(...recentAndHead(monitor, sorted, { first, last, openDownStart: result.openDownStart }, head));

  const timelineChanged =
    replay.redoFrom !== null ||
    result.closed.length > 0 ||
    result.openDownStart !== (head?.openDownStart ?? null);
  const statusChanged = head === null || head.last.status !== last.status;
  return { writes, timelineChanged, statusChanged };
};
