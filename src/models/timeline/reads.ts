// Typed reads of the timeline model.
import type { TimedCheck } from '../../../projections/timeline.ts';
import type { Interval } from '../../../projections/types.ts';
import type { MonitorRef } from '../monitor.ts';
import { hashGetAll, mapRead, tupleRead, zsetByScore, zsetByScoreDesc, type Read } from '../redis/reads.ts';
import { decodeHead, decodeInterval, decodeRecent, type TimelineHead } from './codec.ts';
import { timelineKeys } from './keys.ts';

export const headRead = (monitor: MonitorRef): Read<TimelineHead | null> =>
  mapRead(hashGetAll(timelineKeys(monitor).head), decodeHead);

/** Closed failures starting at or after `from`, in start order. */
export const failuresRead = (monitor: MonitorRef, from: number | '-inf' = '-inf'): Read<Interval[]> =>
  mapRead(zsetByScore(timelineKeys(monitor).down, from, '+inf'), (members) => members.map(decodeInterval));

/**
 * The recent checks around `at`: the two at or before it and all from it on (checks at the same
 * instant may sit on either side of a late one), sorted by their score.
 */
export const recentAroundRead = (monitor: MonitorRef, at: number): Read<TimedCheck[]> => {
  const key = timelineKeys(monitor).recent;
  return mapRead(
    tupleRead([zsetByScoreDesc(key, at, '-inf', 2), zsetByScore(key, at, '+inf')]),
    ([before, after]) => [...before, ...after].map(decodeRecent),
  );
};
