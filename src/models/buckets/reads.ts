// Typed reads of the buckets model: the hour buckets of a day and the minute buckets of a window.
import type { HourBucket, MinuteBucket } from '../../../projections/types.ts';
import { MINUTE_MS } from '../../shared/time.ts';
import type { MonitorRef } from '../monitor.ts';
import { hashGetAll, hashGetMany, listRead, mapRead, type Read } from '../redis/reads.ts';
import { decodeHours, decodeMinute, minuteFields, slotOf } from './codec.ts';
import { bucketKeys } from './keys.ts';

export const hourBucketsRead = (monitor: MonitorRef, day: number): Read<[number, HourBucket][]> =>
  mapRead(hashGetAll(bucketKeys(monitor).hours(day)), (hash) => decodeHours(hash, day));

/** The non-empty minute buckets of the `count` minutes ending with the one holding `now`. */
export const minuteBucketsRead = (
  monitor: MonitorRef,
  now: number,
  count: number,
): Read<[number, MinuteBucket][]> => {
  const current = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const bySlot = new Map<number, number[]>();
  for (let i = count - 1; i >= 0; i -= 1) {
    const minute = current - i * MINUTE_MS;
    const minutes = bySlot.get(slotOf(minute)) ?? [];
    bySlot.set(slotOf(minute), minutes);
    minutes.push(minute);
  }
  const keys = bucketKeys(monitor);
  // One HMGET per slot: each minute's fields, in minuteFields order, decoded minute by minute.
  const slots = [...bySlot].map(([slot, minutes]) =>
    mapRead(hashGetMany(keys.minutes(slot), minutes.flatMap(minuteFields)), (values) => {
      const fields = values[Symbol.iterator]();
      return minutes.flatMap((minute): [number, MinuteBucket][] => {
        const bucket = decodeMinute(minuteFields(minute).map(() => fields.next().value ?? null));
        return bucket === null ? [] : [[minute, bucket]];
      });
    }),
  );
  return mapRead(listRead(slots), (perSlot) => perSlot.flat());
};
