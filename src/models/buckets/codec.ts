// Bucket fields (docs/read-models.md). Minute buckets live in one hash per half hour (a "slot",
// epoch ms ÷ 1,800,000) with `<minute>:n`, `:rt`, `:d`, `:g` (count, Σ response time, down,
// degraded) for the minutes 0–29 of the slot: at most 120 fields, so Redis keeps every such hash
// as a compact listpack (hash-max-listpack-entries is 128 by default) whatever the statuses.
// Hour buckets live in one hash per UTC day with `<hour>:n`, `:rt`. A missing field is 0.
import type { HourBucket, MinuteBucket } from '../../../projections/types.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../shared/time.ts';

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

/** The fields of the minute starting at `minuteStart` in its slot's hash, in decodeMinute's order. */
export const minuteFields = (minuteStart: number): string[] => {
  const m = minuteOfSlot(minuteStart);
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
