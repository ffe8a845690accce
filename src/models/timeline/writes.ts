// Write builders of the timeline model.
import type { TimedCheck } from '../../../projections/timeline.ts';
import type { Interval } from '../../../projections/types.ts';
import type { MonitorRef } from '../monitor.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { encodeHead, encodeInterval, encodeRecent, type TimelineHead } from './codec.ts';
import { timelineKeys } from './keys.ts';

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
  key: timelineKeys(monitor).recent,
  score: check.at,
  member: encodeRecent(check),
});

/** Drops recent checks before `cutoff` but the newest of them: the anchor a late check may need. */
export const keepRecentFrom = (monitor: MonitorRef, cutoff: number): WriteOp => ({
  op: 'zkeepFrom',
  key: timelineKeys(monitor).recent,
  cutoff,
});

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

export const deleteTimeline = (monitor: MonitorRef): WriteOp => ({
  op: 'del',
  keys: Object.values(timelineKeys(monitor)),
});
