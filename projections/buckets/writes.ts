// Write builders of the buckets model: sums, so checks may come in any order, each hash kept only
// while an output can read it.
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/shared/time.ts';
import type { MonitorRef } from '../store/monitor.ts';
import type { WriteOp } from '../store/writeOps.ts';
import {
  bucketKeys,
  dayOf,
  hourIncrements,
  minuteIncrements,
  SLOT_MS,
  slotOf,
  type CheckForBuckets,
} from './codec.ts';

/** The minutes a render reads: the current one and the 239 before it. */
export const MINUTE_WINDOW = 240;
/** How long after its end a slot is kept: the window, plus a margin for clocks that disagree. */
const SLOT_KEEP_MS = MINUTE_WINDOW * MINUTE_MS + HOUR_MS;
/** Hour buckets older than this are never served (today and yesterday). */
const HOUR_HORIZON_MS = 2 * DAY_MS;
const HOUR_TTL_S = 4 * 86_400;

/** Seconds a slot must still live at `now`; 0 or less when no render can read it any more. */
const slotTtlSeconds = (slot: number, now: number): number =>
  Math.ceil(((slot + 1) * SLOT_MS + SLOT_KEEP_MS - now) / 1000);

/**
 * One HINCRBY per field the checks touch (summed), then the expiry of each hash touched that the
 * monitor's latest counted check (`latest`, from its timeline head) did not already create: a
 * hash gets its expiry with its first check (a minute slot's ends with the slot, an hour hash's
 * lies days past its day), so the checks after it need not set it again.
 */
export const countChecks = (
  monitor: MonitorRef,
  checks: readonly CheckForBuckets[],
  now: number,
  latest: number | null,
): WriteOp[] => {
  const keys = bucketKeys(monitor);
  const deltas = new Map<string, { fields: Map<string, number>; seconds: number }>();
  const add = (key: string, seconds: number, increments: readonly [string, number][]) => {
    const found = deltas.get(key) ?? { fields: new Map<string, number>(), seconds };
    deltas.set(key, found);
    for (const [field, by] of increments) found.fields.set(field, (found.fields.get(field) ?? 0) + by);
  };
  for (const check of checks) {
    const slot = slotOf(check.at);
    const slotTtl = slotTtlSeconds(slot, now);
    if (slotTtl > 0) add(keys.minutes(slot), slotTtl, minuteIncrements(check));
    if (check.at >= now - HOUR_HORIZON_MS)
      add(keys.hours(dayOf(check.at)), HOUR_TTL_S, hourIncrements(check));
  }
  const existing =
    latest === null ? new Set<string>() : new Set([keys.minutes(slotOf(latest)), keys.hours(dayOf(latest))]);
  const writes: WriteOp[] = [];
  for (const [key, { fields, seconds }] of deltas) {
    for (const [field, by] of fields) writes.push({ op: 'hincrby', key, field, by });
    if (!existing.has(key)) writes.push({ op: 'expire', key, seconds });
  }
  return writes;
};

/** Deletes every hash that may still hold buckets (older ones have expired). */
export const deleteBuckets = (monitor: MonitorRef, now: number): WriteOp[] => {
  const keys = bucketKeys(monitor);
  const today = dayOf(now);
  const hours: string[] = [];
  for (let day = today - 4; day <= today + 1; day += 1) hours.push(keys.hours(day));
  // Slots still alive, and those of checks a little ahead of the clock.
  const minutes: string[] = [];
  for (let slot = slotOf(now - SLOT_KEEP_MS) - 1; slot <= slotOf(now + HOUR_MS); slot += 1)
    minutes.push(keys.minutes(slot));
  return [{ op: 'del', keys: [...minutes, ...hours] }];
};
