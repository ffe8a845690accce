// What rendering needs of one monitor, as one typed read: its timeline head, failures of the last
// 366 days, hour buckets of today and yesterday and minute buckets of the last 240 minutes.
import type { MonitorConfig, MonitorSnapshot } from '../../projections/types.ts';
import { hourBucketsRead, minuteBucketsRead } from '../models/buckets/reads.ts';
import { MINUTE_WINDOW } from '../models/buckets/writes.ts';
import { dayOf } from '../models/buckets/codec.ts';
import { mapRead, tupleRead, type Read } from '../models/redis/reads.ts';
import { failuresRead, headRead } from '../models/timeline/reads.ts';
import { DAY_MS } from '../shared/time.ts';

const FAILURE_WINDOW_MS = 366 * DAY_MS;

export const monitorSnapshotRead = (
  tag: string,
  config: MonitorConfig,
  now: number,
): Read<MonitorSnapshot> => {
  const monitor = { tag, monitorId: config.id };
  const today = dayOf(now);
  return mapRead(
    tupleRead([
      headRead(monitor),
      failuresRead(monitor),
      hourBucketsRead(monitor, today - 1),
      hourBucketsRead(monitor, today),
      minuteBucketsRead(monitor, now, MINUTE_WINDOW),
    ]),
    ([head, failures, yesterday, todayHours, minutes]) => ({
      ...config,
      firstAt: head?.first ?? null,
      lastStatus: head?.last.status ?? null,
      down: failures.filter((f) => f.end > now - FAILURE_WINDOW_MS).sort((a, b) => a.start - b.start),
      openDownStart: head?.openDownStart ?? null,
      hours: new Map([...yesterday, ...todayHours]),
      minutes: new Map(minutes),
    }),
  );
};
