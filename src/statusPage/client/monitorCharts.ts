// The two charts of a monitor row: today's hourly response time against yesterday's, and the
// last hour minute by minute (from minute-data, loaded when the row comes into view).
import { h } from './dom.ts';
import { clock, ms } from './format.ts';
import { drawLineChart } from './lineChart.ts';
import { serverClock } from './serverClock.ts';
import type { ChartMonitor, MinutePoint } from './types.ts';

const HOUR = 3_600_000;

const figure = (caption: string, legend: HTMLElement | null, chart: HTMLElement): HTMLElement =>
  h('figure', { class: 'chart' }, h('figcaption', {}, h('span', {}, caption), legend), chart);

export const todayChart = (monitor: ChartMonitor): HTMLElement => {
  const start = serverClock.todayStart();
  const points = (data: ChartMonitor['hourly_data']) =>
    data.map((p) => [p.hour + 0.5, p.avg_response] as const);
  const chart = drawLineChart({
    series: [
      { points: points(monitor.yesterday_hourly_data), kind: 'yesterday' },
      { points: points(monitor.hourly_data), kind: 'today' },
    ],
    xMin: 0,
    xMax: 24,
    ticks: [0, 6, 12, 18, 24].map((hour) => clock(new Date(start + hour * HOUR))),
    summary:
      `${monitor.name} response time today: average ${ms(monitor.avg_response_time_today)} over ` +
      `${String(monitor.hourly_data.length)} hours with checks, compared with yesterday.`,
  });
  const legend = h(
    'span',
    { class: 'legend' },
    h('span', { class: 'key today' }, 'Today'),
    h('span', { class: 'key yesterday' }, 'Yesterday'),
  );
  return figure(`Today (UTC) · avg ${ms(monitor.avg_response_time_today)}`, legend, chart);
};

export const lastHourChart = (name: string, minutes: readonly MinutePoint[] | null): HTMLElement => {
  if (minutes === null) {
    return figure('Last hour', null, h('div', { class: 'line-chart pending' }, 'Loading…'));
  }
  const end = serverClock.now().getTime();
  const xMin = end - HOUR;
  const points = minutes.map((p) => [Date.parse(p.minute) + 30_000, p.response_time] as const);
  const slowest = Math.max(0, ...minutes.map((p) => p.response_time));
  const chart = drawLineChart({
    series: [{ points, kind: 'today' }],
    markers: minutes
      .filter((p) => p.status !== 'up')
      .map((p) => ({ x: Date.parse(p.minute) + 30_000, y: p.response_time, kind: p.status })),
    xMin,
    xMax: end,
    ticks: [0, 15, 30, 45, 60].map((m) => clock(new Date(xMin + m * 60_000))),
    summary:
      minutes.length === 0
        ? `${name}: no checks in the last hour.`
        : `${name} response time in the last hour: ${String(minutes.length)} minutes with checks, ` +
          `slowest ${ms(slowest)}, ` +
          `${String(minutes.filter((p) => p.status !== 'up').length)} minutes not fully up.`,
  });
  return figure('Last hour', null, chart);
};
