// The charts and minute-data responses of a page: per-monitor hourly and minute aggregates and the
// page's daily uptime over 90 days, all for one instant `now` (decisions.md "Figures").
import { DAY_MS, HOUR_MS, MINUTE_MS, floorTo, formatTimestamp } from '../../src/shared/time.ts';
import { utcDate } from '../figures/calendar.ts';
import { pageDayUptime } from '../figures/pageDayUptime.ts';
import { bucketUptime } from '../figures/uptime.ts';
import type {
  ChartMonitor,
  Charts,
  GlobalDay,
  HourlyPoint,
  MinuteData,
  MinutePoint,
} from '../../src/contract/responseSchemas.ts';
import type { MonitorSnapshot, OverallStatus } from '../types.ts';
import { inDisplayOrder } from '../render/monitorOrder.ts';

const GLOBAL_DAYS = 90;
const MINUTE_POINTS = 60;

const hourlyData = (monitor: MonitorSnapshot, dayStart: number, nowMs: number): HourlyPoint[] => {
  const points: HourlyPoint[] = [];
  for (let hour = 0; hour < 24; hour++) {
    const start = dayStart + hour * HOUR_MS;
    const bucket = monitor.hours.get(start);
    if (bucket === undefined || bucket.n < 1) continue;
    // An hour holding a check is observed, so null only guards against inconsistent snapshots.
    const uptime = bucketUptime(monitor, start, start + HOUR_MS, nowMs) ?? 100;
    points.push({ hour, avg_response: Math.round(bucket.rt / bucket.n), uptime });
  }
  return points;
};

const averageResponse = (monitor: MonitorSnapshot, dayStart: number): number => {
  let n = 0;
  let rt = 0;
  for (let hour = 0; hour < 24; hour++) {
    const bucket = monitor.hours.get(dayStart + hour * HOUR_MS);
    if (bucket === undefined) continue;
    n += bucket.n;
    rt += bucket.rt;
  }
  return n === 0 ? 0 : Math.round(rt / n);
};

/** The minutes of the last hour (current minute included) holding a check, oldest first. */
const minuteData = (monitor: MonitorSnapshot, nowMs: number): MinutePoint[] => {
  const points: MinutePoint[] = [];
  const current = floorTo(nowMs, MINUTE_MS);
  for (let minute = current - (MINUTE_POINTS - 1) * MINUTE_MS; minute <= current; minute += MINUTE_MS) {
    const bucket = monitor.minutes.get(minute);
    if (bucket === undefined || bucket.n < 1) continue;
    const status = bucket.d > 0 ? 'down' : bucket.g > 0 ? 'degraded' : 'up';
    points.push({ minute: formatTimestamp(minute), response_time: Math.round(bucket.rt / bucket.n), status });
  }
  return points;
};

export const renderChartMonitor = (monitor: MonitorSnapshot, nowMs: number): ChartMonitor => {
  const today = floorTo(nowMs, DAY_MS);
  return {
    id: monitor.id,
    name: monitor.name,
    state: monitor.lastStatus ?? 'up',
    avg_response_time_today: averageResponse(monitor, today),
    hourly_data: hourlyData(monitor, today, nowMs),
    minute_data: minuteData(monitor, nowMs),
    yesterday_hourly_data: hourlyData(monitor, today - DAY_MS, nowMs),
  };
};

/** Newest first; only days on which at least one monitor has data. */
const globalDaily = (monitors: readonly MonitorSnapshot[], nowMs: number): GlobalDay[] => {
  const days: GlobalDay[] = [];
  const today = floorTo(nowMs, DAY_MS);
  for (let i = 0; i < GLOBAL_DAYS; i++) {
    const day = today - i * DAY_MS;
    const uptime = pageDayUptime(monitors, day, nowMs);
    if (uptime !== null) days.push({ date: utcDate(day), uptime });
  }
  return days;
};

export const renderCharts = (
  page: Readonly<{ monitors: readonly MonitorSnapshot[]; overall: OverallStatus }>,
  nowMs: number,
): Charts => ({
  monitors: inDisplayOrder(page.monitors).map((m) => renderChartMonitor(m, nowMs)),
  overall: page.overall,
  globalDaily: globalDaily(page.monitors, nowMs),
  timestamp: Math.floor(nowMs / 1000),
});

export const renderMinuteData = (monitors: readonly MonitorSnapshot[], nowMs: number): MinuteData => ({
  monitors: inDisplayOrder(monitors).map((m) => ({ id: m.id, minute_data: minuteData(m, nowMs) })),
});
