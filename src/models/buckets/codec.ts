// Bucket fields (docs/read-models.md): minute hashes hold `<minute>:n`, `:rt`, `:d`, `:g` (count,
// Σ response time, down, degraded), hour hashes `<hour>:n`, `:rt`; `<minute>` and `<hour>` count
// from the start of the UTC day. A missing field is 0.
import type { HourBucket, MinuteBucket } from '../../../projections/types.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../shared/time.ts';

export type CheckForBuckets = Readonly<{ at: number; status: string; responseTimeMs: number }>;

export const dayOf = (at: number): number => Math.floor(at / DAY_MS);

/** The fields one check adds 1 (or its response time) to, in write order. */
export const minuteIncrements = (check: CheckForBuckets): [field: string, by: number][] => {
  const day = dayOf(check.at);
  const minute = Math.floor((check.at - day * DAY_MS) / MINUTE_MS);
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

/** The fields of the minute starting at `minuteStart`, in the order decodeMinute reads them. */
export const minuteFields = (minuteStart: number): string[] => {
  const m = (minuteStart - dayOf(minuteStart) * DAY_MS) / MINUTE_MS;
  return [`${m}:n`, `${m}:rt`, `${m}:d`, `${m}:g`];
};

/** A minute's bucket from its minuteFields values; null when it saw no check. */
export const decodeMinute = (values: readonly (string | null | undefined)[]): MinuteBucket | null => {
  const n = Number(values[0] ?? 0);
  if (n <= 0) return null;
  const [rt, d, g] = [1, 2, 3].map((o) => Number(values[o] ?? 0));
  return { n, rt: rt!, d: d!, g: g! };
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
