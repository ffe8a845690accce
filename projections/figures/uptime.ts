// Uptime of one monitor over a bucket (hour or day), counting only the observed part: after the
// monitor's first check and before now. Used by hourly_data, globalDaily and upd.
import { downMs } from './downtime.ts';
import { uptimePercent } from './percent.ts';
import type { MonitorSnapshot } from '../types.ts';

export type UptimeSource = Pick<MonitorSnapshot, 'firstAt' | 'down' | 'openDownStart'>;

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
  return { up: observed - downMs(monitor.down, monitor.openDownStart, start, end, nowMs), observed };
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
