// What rendering needs of one monitor, as one typed read of bounded size, so a monitor's render
// costs the same whatever its history.
import { periodMs } from '../../../projections/availability/availability.ts';
import type { Interval, MonitorConfig, MonitorSnapshot, MonitorStatus } from '../../../projections/types.ts';
import { hourBucketsRead, minuteBucketsRead } from '../buckets/reads.ts';
import { MINUTE_WINDOW } from '../../../projections/buckets/writes.ts';
import { dayOf } from '../../../projections/buckets/codec.ts';
import { listRead, mapRead, tupleRead, type Read } from '../../store/reads.ts';
import { downDaysRead, failuresOverlappingRead, headRead } from '../timeline/reads.ts';
import { DAY_MS, floorTo } from '../../shared/time.ts';

const SUMMARY_WINDOW_MS = 366 * DAY_MS;

/** The ranges whose failures are loaded one by one: each period's oldest, partial day, and from yesterday on. */
const exactRanges = (now: number): (readonly [number, number])[] => {
  const yesterday = floorTo(now, DAY_MS) - DAY_MS;
  const oldestDays = Object.values(periodMs)
    .map((length) => now - length)
    .filter((from) => from < yesterday)
    .map((from) => [from, floorTo(from, DAY_MS) + DAY_MS] as const);
  return [...oldestDays, [yesterday, Number.POSITIVE_INFINITY]];
};

/** Failures loaded by several ranges, once each, in start order. */
const merged = (lists: readonly Interval[][]): Interval[] => {
  const byStart = new Map<number, Interval>();
  for (const failure of lists.flat()) byStart.set(failure.start, failure);
  return [...byStart.values()].sort((a, b) => a.start - b.start);
};

export const monitorSnapshotRead = (
  tag: string,
  config: MonitorConfig,
  now: number,
): Read<MonitorSnapshot> => {
  const monitor = { tag, monitorId: config.id };
  const today = dayOf(now);
  const exact = exactRanges(now);
  return mapRead(
    tupleRead([
      headRead(monitor),
      downDaysRead(monitor, now - SUMMARY_WINDOW_MS),
      listRead(exact.map(([from, to]) => failuresOverlappingRead(monitor, from, to))),
      hourBucketsRead(monitor, today - 1),
      hourBucketsRead(monitor, today),
      minuteBucketsRead(monitor, now, MINUTE_WINDOW),
    ]),
    ([head, days, failures, yesterday, todayHours, minutes]) => ({
      ...config,
      firstAt: head?.first ?? null,
      lastStatus: head?.last.status ?? null,
      down: merged(failures),
      summary: { days, exact },
      openDownStart: head?.openDownStart ?? null,
      hours: new Map([...yesterday, ...todayHours]),
      minutes: new Map(minutes),
    }),
  );
};

/** A monitor's config and timeline head: what the status outputs (overall, embed, Statuspage) need. */
export const monitorStatusRead = (tag: string, config: MonitorConfig): Read<MonitorStatus> =>
  mapRead(headRead({ tag, monitorId: config.id }), (head) => ({
    ...config,
    firstAt: head?.first ?? null,
    lastStatus: head?.last.status ?? null,
    openDownStart: head?.openDownStart ?? null,
  }));
