// The page figure of one UTC day (globalDaily, upd): the mean of the day figures of the monitors
// that have data that day. The mean is taken before rounding, so no double rounding.
import { DAY_MS } from '../../src/shared/time.ts';
import { bucketObservation, type UptimeSource } from './uptime.ts';

export const pageDayUptime = (
  monitors: readonly UptimeSource[],
  dayStart: number,
  nowMs: number,
): number | null => {
  let sum = 0;
  let count = 0;
  for (const monitor of monitors) {
    const seen = bucketObservation(monitor, dayStart, dayStart + DAY_MS, nowMs);
    if (seen === null) continue;
    sum += (seen.up * 100_000) / seen.observed;
    count++;
  }
  return count === 0 ? null : Math.round(sum / count) / 1000;
};
