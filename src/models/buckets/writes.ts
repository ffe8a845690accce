// Write builders of the buckets model. Buckets are sums, so checks may come in any order; each
// day's hashes expire once no output can need them.
import { DAY_MS } from '../../shared/time.ts';
import type { MonitorRef } from '../monitor.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { dayOf, hourIncrements, minuteIncrements, type CheckForBuckets } from './codec.ts';
import { bucketKeys } from './keys.ts';

/** Buckets older than this are never served (minute data: 240 min; hours: today and yesterday). */
const BUCKET_HORIZON_MS = 2 * DAY_MS;
const BUCKET_TTL_S = 4 * 86_400;

/** One HINCRBY per field the checks touch (summed), then the expiry of each hash touched. */
export const countChecks = (
  monitor: MonitorRef,
  checks: readonly CheckForBuckets[],
  now: number,
): WriteOp[] => {
  const keys = bucketKeys(monitor);
  const deltas = new Map<string, Map<string, number>>();
  const add = (key: string, increments: readonly [string, number][]) => {
    const fields = deltas.get(key) ?? new Map<string, number>();
    deltas.set(key, fields);
    for (const [field, by] of increments) fields.set(field, (fields.get(field) ?? 0) + by);
  };
  for (const check of checks) {
    if (check.at < now - BUCKET_HORIZON_MS) continue;
    const day = dayOf(check.at);
    add(keys.minutes(day), minuteIncrements(check));
    add(keys.hours(day), hourIncrements(check));
  }
  const writes: WriteOp[] = [];
  for (const [key, fields] of deltas) {
    for (const [field, by] of fields) writes.push({ op: 'hincrby', key, field, by });
    writes.push({ op: 'expire', key, seconds: BUCKET_TTL_S });
  }
  return writes;
};

/** Deletes every day that may still hold buckets (older ones have expired). */
export const deleteBuckets = (monitor: MonitorRef, now: number): WriteOp[] => {
  const keys = bucketKeys(monitor);
  const today = dayOf(now);
  const writes: WriteOp[] = [];
  for (let day = today - 4; day <= today + 1; day += 1)
    writes.push({ op: 'del', keys: [keys.minutes(day), keys.hours(day)] });
  return writes;
};
