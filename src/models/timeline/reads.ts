// Typed reads of the timeline model.
import type { TimedCheck } from '../../../projections/timeline.ts';
import type { DaySummary, Interval } from '../../../projections/types.ts';
import { DAY_MS } from '../../shared/time.ts';
import type { MonitorRef } from '../monitor.ts';
import { hashGetAll, mapRead, tupleRead, zsetByScore, zsetByScoreDesc, type Read } from '../redis/reads.ts';
import { decodeDaySummary, decodeHead, decodeInterval, decodeRecent, type TimelineHead } from './codec.ts';
import { timelineKeys } from './keys.ts';

export const headRead = (monitor: MonitorRef): Read<TimelineHead | null> =>
  mapRead(hashGetAll(timelineKeys(monitor).head), decodeHead);

/** Closed failures starting at or after `from`, in start order. */
export const failuresRead = (monitor: MonitorRef, from: number | '-inf' = '-inf'): Read<Interval[]> =>
  mapRead(zsetByScore(timelineKeys(monitor).down, from, '+inf'), (members) => members.map(decodeInterval));

/** Closed failures overlapping [from, to): the latest one starting before `from`, and those starting in it. */
export const failuresOverlappingRead = (monitor: MonitorRef, from: number, to: number): Read<Interval[]> => {
  const key = timelineKeys(monitor).down;
  return mapRead(
    tupleRead([zsetByScoreDesc(key, `(${from}`, '-inf', 1), zsetByScore(key, from, `(${to}`)]),
    ([before, inside]) => [...before, ...inside].map(decodeInterval),
  );
};

/** Day summaries of the failures from the UTC day holding `from` on, keyed by the day's start. */
export const downDaysRead = (monitor: MonitorRef, from: number): Read<Map<number, DaySummary>> =>
  mapRead(
    zsetByScore(timelineKeys(monitor).downDays, Math.floor(from / DAY_MS), '+inf'),
    (members) => new Map(members.map(decodeDaySummary)),
  );

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
