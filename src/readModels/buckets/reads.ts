// Typed reads of the buckets model: the hour buckets of a day and the minute buckets of a window.
import type { HourBucket, MinuteBucket } from '../../../projections/types.ts';
import { MINUTE_MS } from '../../shared/time.ts';
import type { MonitorRef } from '../../../projections/store/monitor.ts';
import { hashGetAll, listRead, mapRead, type Read } from '../../store/reads.ts';
import { bucketKeys, decodeHours, decodeSlot, slotOf } from '../../../projections/buckets/codec.ts';

export const hourBucketsRead = (monitor: MonitorRef, day: number): Read<[number, HourBucket][]> =>
  mapRead(hashGetAll(bucketKeys(monitor).hours(day)), (hash) => decodeHours(hash, day));

/**
 * The non-empty minute buckets of the `count` minutes ending with the one holding `now`: one
 * HGETALL per half-hour slot the window spans (a compact hash of at most 120 fields, cheaper to
 * read whole than to name its fields), minutes outside the window left out.
 */
export const minuteBucketsRead = (
  monitor: MonitorRef,
  now: number,
  count: number,
): Read<[number, MinuteBucket][]> => {
  const last = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const first = last - (count - 1) * MINUTE_MS;
  const keys = bucketKeys(monitor);
  const slots: Read<[number, MinuteBucket][]>[] = [];
  for (let slot = slotOf(first); slot <= slotOf(last); slot += 1)
    slots.push(mapRead(hashGetAll(keys.minutes(slot)), (hash) => decodeSlot(hash, slot)));
  return mapRead(listRead(slots), (perSlot) =>
    perSlot.flat().filter(([minute]) => minute >= first && minute <= last),
  );
};
