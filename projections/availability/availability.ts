// The availability response of one monitor for one period, and when it next changes by the clock
// alone (the projector re-renders it then). Time without data counts as up here, unlike uptime.
import { DAY_MS, floorTo } from '../../src/shared/time.ts';
import { utcDate } from '../figures/calendar.ts';
import { firstFailureStart, historyDownMs, historyFailures, type Timeline } from '../figures/downHistory.ts';
import { growingChange, shrinkingChange } from '../figures/nextRoundingChange.ts';
import { uptimePercent } from '../figures/percent.ts';
import type { Availability, DailyBreakdown } from '../../src/contract/responseSchemas.ts';
import type { MonitorSnapshot, Period } from '../types.ts';

export const periodMs = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
  '1y': 365 * DAY_MS,
} as const satisfies Record<Period, number>;
export const periods = Object.keys(periodMs) as Period[];

/** Whole down seconds in [from, to), the unit every availability figure is computed from. */
const downSeconds = (m: Timeline, from: number, to: number, nowMs: number): number =>
  Math.floor(historyDownMs(m, from, to, nowMs) / 1000);

/** Newest first; each day's figures over the part of it inside [from, now). */
const dailyBreakdown = (m: Timeline, from: number, nowMs: number): DailyBreakdown[] => {
  const days: DailyBreakdown[] = [];
  for (let day = floorTo(nowMs - 1, DAY_MS); day + DAY_MS > from; day -= DAY_MS) {
    const partFrom = Math.max(day, from);
    const partTo = Math.min(day + DAY_MS, nowMs);
    const downtime = downSeconds(m, partFrom, partTo, nowMs);
    const part = partTo - partFrom;
    days.push({
      date: utcDate(day),
      uptime_percentage: uptimePercent(part - downtime * 1000, part),
      downtime_seconds: downtime,
    });
  }
  return days;
};

export const renderAvailability = (monitor: MonitorSnapshot, period: Period, nowMs: number): Availability => {
  const from = nowMs - periodMs[period];
  const total = periodMs[period] / 1000;
  const downtime = downSeconds(monitor, from, nowMs, nowMs);
  const failures = historyFailures(monitor, from, nowMs, nowMs);
  const up = total - downtime;
  return {
    monitor_id: monitor.id,
    monitor_name: monitor.name,
    period,
    availability: {
      uptime_percentage: uptimePercent(up, total),
      downtime_seconds: downtime,
      total_seconds: total,
      mtbf_seconds: failures === 0 ? up : Math.floor(up / failures),
      mttr_seconds: failures === 0 ? 0 : Math.floor(downtime / failures),
      incident_count: failures,
    },
    daily_breakdown: dailyBreakdown(monitor, from, nowMs),
  };
};

/**
 * The next change of one period's response, given no failure is open: a failure starting to leave
 * the window (its downtime then shrinks every second), or the rounded uptime of the window's
 * oldest, partial day moving as that day's part shrinks.
 */
const periodChange = (closed: Timeline, length: number, nowMs: number): number => {
  const from = nowMs - length;
  const first = firstFailureStart(closed, from);
  let next = Infinity;
  if (first !== undefined && first < nowMs) {
    if (first <= from) return nowMs + 1000;
    next = first + length;
  }
  const dayEnd = floorTo(from, DAY_MS) + DAY_MS;
  const oldest = shrinkingChange(downSeconds(closed, from, dayEnd, nowMs) * 1000, dayEnd - from);
  return oldest === null ? next : Math.min(next, dayEnd + length - oldest);
};

/**
 * The next instant at which any period's availability response differs by the clock alone; an
 * upper bound on "nothing changes before". With a failure open, downtime grows every second.
 */
export const nextAvailabilityChange = (monitor: MonitorSnapshot, nowMs: number): number => {
  if (monitor.openDownStart !== null) return nowMs + 1000;
  const today = floorTo(nowMs, DAY_MS);
  // Dates shift at midnight; exactly at midnight a new (empty) day entry appears 1 ms later.
  let next = nowMs === today ? nowMs + 1 : today + DAY_MS;
  if (nowMs > today) {
    // Today's part grows with the clock, moving its rounded uptime when it holds downtime.
    const partLength = growingChange(downSeconds(monitor, today, nowMs, nowMs) * 1000, nowMs - today);
    next = Math.min(next, today + partLength);
  }
  const closed = { ...monitor, openDownStart: null };
  for (const period of periods) next = Math.min(next, periodChange(closed, periodMs[period], nowMs));
  return next;
};
