// Write builders of the timeline model.
import type { TimedCheck } from './timeline.ts';
import type { Interval } from '../types.ts';
import type { MonitorRef } from '../store/monitor.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { encodeHead, encodeInterval, encodeRecent, recentHourOf, type TimelineHead } from './codec.ts';
import { DAY_MS } from '../../src/shared/time.ts';
import { timelineKeys } from './keys.ts';
import { recentCutoff, recentHours } from './retention.ts';

export const putHead = (monitor: MonitorRef, head: TimelineHead): WriteOp[] => {
  const key = timelineKeys(monitor).head;
  return [
    { op: 'hset', key, fields: encodeHead(head) },
    head.openDownStart === null
      ? { op: 'hdel', key, field: 'open_down' }
      : { op: 'hset', key, fields: [['open_down', head.openDownStart]] },
  ];
};

export const addRecentCheck = (monitor: MonitorRef, check: TimedCheck): WriteOp => ({
  op: 'zadd',
  key: timelineKeys(monitor).recent(recentHourOf(check.at)),
  score: check.at,
  member: encodeRecent(check),
});

/**
 * Drops the recent checks before `head`'s cutoff but the newest of them, which moves into the
 * anchor set: the check before a late one may be that old. The hour sets that can hold checks
 * before the cutoff are those of `previous` (the head Redis held) and of the `added` checks.
 */
export const keepRecentFrom = (
  monitor: MonitorRef,
  head: TimelineHead,
  previous: TimelineHead | null,
  added: readonly TimedCheck[],
): WriteOp => {
  const keys = timelineKeys(monitor);
  const cutoff = recentCutoff(head);
  const cutoffHour = recentHourOf(cutoff);
  const hours = new Set(previous === null ? [] : recentHours(previous).filter((h) => h < cutoffHour));
  for (const check of added) if (check.at < cutoff) hours.add(recentHourOf(check.at));
  hours.add(cutoffHour);
  const from = [...hours].sort((a, b) => a - b).map(keys.recent);
  return { op: 'zkeepFrom', key: keys.recentAnchor, cutoff, from };
};

/** Drops the closed failures starting at or after `from` (a late check replays them). */
export const dropFailuresFrom = (monitor: MonitorRef, from: number): WriteOp => ({
  op: 'zremFrom',
  key: timelineKeys(monitor).down,
  min: from,
});

/** Drops the closed failures starting in [from, below) (a backfill replays them). */
export const dropFailuresBetween = (monitor: MonitorRef, from: number, below: number): WriteOp => ({
  op: 'zremBetween',
  key: timelineKeys(monitor).down,
  min: from,
  below,
});

export const addFailure = (monitor: MonitorRef, failure: Interval): WriteOp => ({
  op: 'zadd',
  key: timelineKeys(monitor).down,
  score: failure.start,
  member: encodeInterval(failure),
});

/**
 * How long failures and their day summaries are kept before a monitor's latest check: SLA reports
 * reach back to January three years before the current one (up to 4 years, sla-reports.md), and
 * are re-derived from the failures when a page's zone, a maintenance or a monitor changes.
 */
export const FAILURE_HISTORY_MS = 1500 * DAY_MS;

const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * After the failures touching [from, to] changed: drops failures (but the one that may still reach
 * into the kept history) and summaries older than FAILURE_HISTORY_MS before `lastAt`, then
 * re-summarises the kept days of [from, to] from the failures as they stand. Every op states a
 * result, not a change, so applying them twice gives the same models.
 */
export const summarizeFailures = (
  monitor: MonitorRef,
  from: number,
  to: number,
  lastAt: number,
): WriteOp[] => {
  const keys = timelineKeys(monitor);
  const cutoff = lastAt - FAILURE_HISTORY_MS;
  const kept = dayOf(cutoff) + 1; // the first day all of whose failures are kept
  const fromDay = Math.max(dayOf(from), kept);
  const toDay = dayOf(Math.max(from, to));
  return [
    { op: 'zkeepFrom', key: keys.down, cutoff },
    { op: 'zremBetween', key: keys.downDays, min: Number.NEGATIVE_INFINITY, below: kept },
    ...(fromDay <= toDay
      ? [{ op: 'summarizeDown', key: keys.down, summary: keys.downDays, fromDay, toDay } as const]
      : []),
  ];
};

/** Deletes the timeline whose head Redis holds (null: no check was kept, or it is gone already). */
export const deleteTimeline = (monitor: MonitorRef, head: TimelineHead | null): WriteOp => {
  const keys = timelineKeys(monitor);
  const recent = head === null ? [] : recentHours(head).map(keys.recent);
  return { op: 'del', keys: [keys.head, ...recent, keys.recentAnchor, keys.down, keys.downDays] };
};
