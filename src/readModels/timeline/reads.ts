// Typed reads of the timeline model.
import type { TimedCheck } from '../../../projections/timeline/timeline.ts';
import type { DaySummary, Interval } from '../../../projections/types.ts';
import { DAY_MS } from '../../shared/time.ts';
import type { MonitorRef } from '../../../projections/store/monitor.ts';
import {
  hashGetAll,
  listRead,
  mapRead,
  tupleRead,
  zsetByScore,
  zsetByScoreDesc,
  zsetScoredByScore,
  zsetScoredByScoreDesc,
  type Read,
  type Scored,
} from '../../store/reads.ts';
import {
  decodeDaySummary,
  decodeHead,
  decodeInterval,
  decodeRecent,
  recentHourOf,
  type TimelineHead,
} from '../../../projections/timeline/codec.ts';
import { timelineKeys } from '../../../projections/timeline/keys.ts';
import { recentHours } from '../../../projections/timeline/retention.ts';

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

/** The `count` newest of members read from several sets, in Redis's order (score, then member). */
const newest = (members: readonly Scored[], count: number): Scored[] =>
  [...members]
    .sort(([a, as], [b, bs]) => Number(bs) - Number(as) || (a < b ? 1 : a > b ? -1 : 0))
    .slice(0, count);

/**
 * The recent checks around `at`: the two at or before it and all from it on (checks at the same
 * instant may sit on either side of a late one). Only the hour sets `head` (the latest check)
 * keeps alive are read, and the anchor.
 */
export const recentAroundRead = (monitor: MonitorRef, at: number, head: TimelineHead): Read<TimedCheck[]> => {
  const keys = timelineKeys(monitor);
  const hours = recentHours(head);
  const hour = recentHourOf(at);
  const upTo = [...hours.filter((h) => h <= hour).map(keys.recent), keys.recentAnchor];
  const from = [keys.recentAnchor, ...hours.filter((h) => h >= hour).map(keys.recent)];
  return mapRead(
    tupleRead([
      listRead(upTo.map((key) => zsetScoredByScoreDesc(key, at, '-inf', 2))),
      listRead(from.map((key) => zsetScoredByScore(key, at, '+inf'))),
    ]),
    ([before, after]) =>
      [...newest(before.flat(), 2), ...after.flat()].map(([member, score]) => decodeRecent(member, score)),
  );
};
