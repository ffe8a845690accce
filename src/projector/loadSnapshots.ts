// Loads what rendering a page needs from the source aggregates, in one round trip: each
// monitor's timeline head, failures of the last 366 days, hour buckets of today and yesterday
// and minute buckets of the last 240 minutes.
import type { Redis } from 'ioredis';
import type { HourBucket, MinuteBucket, MonitorConfig, MonitorSnapshot } from '../../projections/types.ts';
import { monitorKeys } from '../readModels/keys.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../shared/time.ts';
import { decodeInterval, parseTimelineHead } from './timelineStore.ts';

export const MINUTE_WINDOW = 240;
const FAILURE_WINDOW_MS = 366 * DAY_MS;

type Fetch = { key: string; fields: string[]; minutes: number[] };

// The 240 minutes ending with the current one, grouped by the UTC day key holding them.
const minuteFetches = (tag: string, id: number, now: number): Fetch[] => {
  const current = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const byDay = new Map<number, Fetch>();
  for (let i = MINUTE_WINDOW - 1; i >= 0; i -= 1) {
    const minute = current - i * MINUTE_MS;
    const day = Math.floor(minute / DAY_MS);
    const fetch = byDay.get(day) ?? { key: monitorKeys(tag, id).minutes(day), fields: [], minutes: [] };
    byDay.set(day, fetch);
    const m = (minute - day * DAY_MS) / MINUTE_MS;
    fetch.fields.push(`${m}:n`, `${m}:rt`, `${m}:d`, `${m}:g`);
    fetch.minutes.push(minute);
  }
  return [...byDay.values()];
};

const hourBuckets = (hash: Record<string, string>, day: number, into: Map<number, HourBucket>) => {
  for (let hour = 0; hour < 24; hour += 1) {
    const n = Number(hash[`${hour}:n`] ?? 0);
    if (n > 0) into.set(day * DAY_MS + hour * HOUR_MS, { n, rt: Number(hash[`${hour}:rt`] ?? 0) });
  }
};

export const loadSnapshots = async (
  redis: Redis,
  tag: string,
  monitors: readonly MonitorConfig[],
  now: number,
): Promise<MonitorSnapshot[]> => {
  const today = Math.floor(now / DAY_MS);
  const pipeline = redis.pipeline();
  const fetches = monitors.map((m) => minuteFetches(tag, m.id, now));
  monitors.forEach((m, i) => {
    const keys = monitorKeys(tag, m.id);
    pipeline.hgetall(keys.timeline);
    pipeline.zrangebyscore(keys.down, '-inf', '+inf');
    pipeline.hgetall(keys.hours(today - 1));
    pipeline.hgetall(keys.hours(today));
    for (const f of fetches[i]!) pipeline.hmget(f.key, ...f.fields);
  });
  const results = (await pipeline.exec()) ?? [];
  let r = 0;
  const next = () => results[r++]?.[1];
  return monitors.map((config, i) => {
    const head = parseTimelineHead((next() ?? {}) as Record<string, string>);
    const down = ((next() ?? []) as string[])
      .map(decodeInterval)
      .filter((f) => f.end > now - FAILURE_WINDOW_MS)
      .sort((a, b) => a.start - b.start);
    const hours = new Map<number, HourBucket>();
    hourBuckets((next() ?? {}) as Record<string, string>, today - 1, hours);
    hourBuckets((next() ?? {}) as Record<string, string>, today, hours);
    const minutes = new Map<number, MinuteBucket>();
    for (const f of fetches[i]!) {
      const values = (next() ?? []) as (string | null)[];
      f.minutes.forEach((minute, k) => {
        const n = Number(values[k * 4] ?? 0);
        if (n > 0) {
          const [rt, d, g] = [1, 2, 3].map((o) => Number(values[k * 4 + o] ?? 0));
          minutes.set(minute, { n, rt: rt!, d: d!, g: g! });
        }
      });
    }
    return {
      ...config,
      firstAt: head?.first ?? null,
      lastStatus: head?.last.status ?? null,
      down,
      openDownStart: head?.openDownStart ?? null,
      hours,
      minutes,
    };
  });
};
