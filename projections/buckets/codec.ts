// Bucket fields: minute buckets in one hash per half hour, hour buckets in one per UTC day; a
// missing field is 0 (docs/read-models.md).
import type { HourBucket, MinuteBucket } from '../types.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/shared/time.ts';
import { monitorPrefix, type MonitorRef } from '../store/monitor.ts';

export const bucketKeys = (monitor: MonitorRef) => {
  const m = monitorPrefix(monitor);
  return { minutes: (slot: number) => `${m}:min30:${slot}`, hours: (day: number) => `${m}:hr:${day}` };
};

export type CheckForBuckets = Readonly<{ at: number; status: string; responseTimeMs: number }>;

/** The span of one minute-bucket hash. */
export const SLOT_MS = 30 * MINUTE_MS;

export const dayOf = (at: number): number => Math.floor(at / DAY_MS);
export const slotOf = (at: number): number => Math.floor(at / SLOT_MS);

const minuteOfSlot = (at: number): number => Math.floor((at - slotOf(at) * SLOT_MS) / MINUTE_MS);

/** The fields of its slot's hash one check adds 1 (or its response time) to, in write order. */
export const minuteIncrements = (check: CheckForBuckets): [field: string, by: number][] => {
  const minute = minuteOfSlot(check.at);
  const fields: [string, number][] = [
    [`${minute}:n`, 1],
    [`${minute}:rt`, check.responseTimeMs],
  ];
  if (check.status === 'down') fields.push([`${minute}:d`, 1]);
  if (check.status === 'degraded') fields.push([`${minute}:g`, 1]);
  return fields;
};

export const hourIncrements = (check: CheckForBuckets): [field: string, by: number][] => {
  const day = dayOf(check.at);
  const hour = Math.floor((check.at - day * DAY_MS) / HOUR_MS);
  return [
    [`${hour}:n`, 1],
    [`${hour}:rt`, check.responseTimeMs],
  ];
};

/** The non-empty minute buckets of one slot's hash, keyed by the minute's start (epoch ms). */
export const decodeSlot = (
  hash: Readonly<Record<string, string>>,
  slot: number,
): [number, MinuteBucket][] => {
  const minutes: [number, MinuteBucket][] = [];
  for (let minute = 0; minute < SLOT_MS / MINUTE_MS; minute += 1) {
    const n = Number(hash[`${minute}:n`] ?? 0);
    if (n <= 0) continue;
    const field = (name: string) => Number(hash[`${minute}:${name}`] ?? 0);
    minutes.push([slot * SLOT_MS + minute * MINUTE_MS, { n, rt: field('rt'), d: field('d'), g: field('g') }]);
  }
  return minutes;
};

/** The non-empty hour buckets of one day's hash, keyed by the hour's start (epoch ms). */
export const decodeHours = (hash: Readonly<Record<string, string>>, day: number): [number, HourBucket][] => {
  const hours: [number, HourBucket][] = [];
  for (let hour = 0; hour < 24; hour += 1) {
    const n = Number(hash[`${hour}:n`] ?? 0);
    if (n > 0) hours.push([day * DAY_MS + hour * HOUR_MS, { n, rt: Number(hash[`${hour}:rt`] ?? 0) }]);
  }
  return hours;
};
