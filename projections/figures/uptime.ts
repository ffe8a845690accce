// Uptime of one monitor over a bucket (hour or day), counting only the observed part: after the
// monitor's first check and before now. Used by hourly_data, globalDaily and upd.
import { historyDownMs } from './downHistory.ts';
import { uptimePercent } from './percent.ts';
import type { MonitorSnapshot } from '../types.ts';

export type UptimeSource = Pick<MonitorSnapshot, 'firstAt' | 'down' | 'openDownStart' | 'summary'>;

/** Up and observed milliseconds of [from, to); null when nothing of it is observed. */
export const bucketObservation = (
  monitor: UptimeSource,
  from: number,
  to: number,
  nowMs: number,
): { up: number; observed: number } | null => {
  if (monitor.firstAt === null) return null;
  const start = Math.max(from, monitor.firstAt);
  const end = Math.min(to, nowMs);
  if (end <= start) return null;
  const observed = end - start;
  // No failure starts before the first check, so the bucket's down time is counted from its start:
  // a whole day then comes from its summary even on the day of the first check.
  return { up: observed - historyDownMs(monitor, from, end, nowMs), observed };
};

/** 100 × (1 − down ÷ observed) over [from, to), 3 decimals; null when nothing is observed. */
export const bucketUptime = (
  monitor: UptimeSource,
  from: number,
  to: number,
  nowMs: number,
): number | null => {
  const seen = bucketObservation(monitor, from, to, nowMs);
  return seen === null ? null : uptimePercent(seen.up, seen.observed);
};
