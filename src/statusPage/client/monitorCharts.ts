// The two charts of a monitor row: today's hourly response time against yesterday's, and the
// last hour minute by minute (from minute-data, loaded when the row comes into view).
import { h } from './dom.ts';
import { clock, ms } from './format.ts';
import { t } from './i18n.ts';
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
    summary: t('chart.todaySummary', {
      name: monitor.name,
      ms: ms(monitor.avg_response_time_today),
      count: monitor.hourly_data.length,
    }),
  });
  const legend = h(
    'span',
    { class: 'legend' },
    h('span', { class: 'key today' }, t('chart.today')),
    h('span', { class: 'key yesterday' }, t('chart.yesterday')),
  );
  return figure(t('chart.todayCaption', { ms: ms(monitor.avg_response_time_today) }), legend, chart);
};

export const lastHourChart = (name: string, minutes: readonly MinutePoint[] | null): HTMLElement => {
  if (minutes === null) {
    return figure(t('chart.lastHour'), null, h('div', { class: 'line-chart pending' }, t('chart.loading')));
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
        ? t('chart.noChecks', { name })
        : t('chart.lastHourSummary', {
            name,
            minutes: t('chart.minutesChecked', { count: minutes.length }),
            ms: ms(slowest),
            notUp: t('chart.minutesNotUp', { count: minutes.filter((p) => p.status !== 'up').length }),
          }),
  });
  return figure(t('chart.lastHour'), null, chart);
};
