import { describe, expect, it } from 'vitest';
import { renderChartMonitor, renderCharts, renderMinuteData } from '../../projections/charts/charts.ts';
import { DAY_MS } from '../../src/shared/time.ts';
import { aMonitor, hours, minutes, ms } from './monitorSnapshot.ts';

const now = ms('2026-11-22T10:30:20Z');
// First check mid-hour yesterday; one failure across the hour and day boundary at midnight.
const api = aMonitor({
  id: 1,
  name: 'API',
  firstAt: ms('2026-11-21T22:20:00Z'),
  lastStatus: 'degraded',
  down: [{ start: ms('2026-11-21T23:50:00Z'), end: ms('2026-11-22T00:10:00Z') }],
  hours: hours({
    '2026-11-21T22:00:00Z': { n: 4, rt: 402 },
    '2026-11-21T23:00:00Z': { n: 6, rt: 600 },
    '2026-11-22T00:00:00Z': { n: 3, rt: 301 },
    '2026-11-22T10:00:00Z': { n: 2, rt: 250 },
  }),
  minutes: minutes({
    '2026-11-22T09:30:00Z': { n: 1, rt: 70 }, // 60 minutes ago: outside the window
    '2026-11-22T09:31:00Z': { n: 1, rt: 90 },
    '2026-11-22T10:29:00Z': { n: 1, rt: 120, g: 1 },
    '2026-11-22T10:30:00Z': { n: 2, rt: 301, d: 1, g: 1 },
  }),
});
const web = aMonitor({ id: 2, name: 'Web', firstAt: ms('2026-11-20T00:00:00Z') });

describe('renderChartMonitor', () => {
  it('renders hourly, minute and yesterday data over the observed part of each hour', () => {
    expect(renderChartMonitor(api, now)).toEqual({
      id: 1,
      name: 'API',
      state: 'degraded',
      avg_response_time_today: 110, // 551 ÷ 5
      hourly_data: [
        { hour: 0, avg_response: 100, uptime: 83.333 }, // 00:00–00:10 down
        { hour: 10, avg_response: 125, uptime: 100 }, // observed 10:00–now
      ],
      minute_data: [
        { minute: '2026-11-22T09:31:00Z', response_time: 90, status: 'up' },
        { minute: '2026-11-22T10:29:00Z', response_time: 120, status: 'degraded' },
        { minute: '2026-11-22T10:30:00Z', response_time: 151, status: 'down' },
      ],
      yesterday_hourly_data: [
        { hour: 22, avg_response: 101, uptime: 100 }, // observed 22:20–23:00 only; 100.5 rounds up
        { hour: 23, avg_response: 100, uptime: 83.333 }, // 23:50–24:00 down
      ],
    });
  });

  it("defaults: state up without checks, 0 ms average and no points without today's checks", () => {
    expect(renderChartMonitor(web, now)).toEqual({
      id: 2,
      name: 'Web',
      state: 'up',
      avg_response_time_today: 0,
      hourly_data: [],
      minute_data: [],
      yesterday_hourly_data: [],
    });
  });

  it('keeps the field order of the spec', () => {
    expect(Object.keys(renderChartMonitor(api, now))).toEqual([
      'id',
      'name',
      'state',
      'avg_response_time_today',
      'hourly_data',
      'minute_data',
      'yesterday_hourly_data',
    ]);
  });
});

describe('renderCharts', () => {
  it('averages the monitors with data per day, newest first, and stamps the second', () => {
    const body = renderCharts({ monitors: [web, api], overall: 'operational' }, now);
    expect(body.monitors.map((m) => m.id)).toEqual([1, 2]);
    expect(body.overall).toBe('operational');
    expect(body.globalDaily).toEqual([
      { date: '2026-11-22', uptime: 99.207 }, // mean(37220 ÷ 37820 s, 100) = 99.2068
      { date: '2026-11-21', uptime: 95 }, // mean(90 ÷ 100 min, 100)
      { date: '2026-11-20', uptime: 100 }, // Web only
    ]);
    expect(body.timestamp).toBe(ms('2026-11-22T10:30:20Z') / 1000);
    expect(Object.keys(body)).toEqual(['monitors', 'overall', 'globalDaily', 'timestamp']);
  });

  it('covers the last 90 days including today', () => {
    const old = aMonitor({ firstAt: now - 200 * DAY_MS });
    const days = renderCharts({ monitors: [old], overall: 'operational' }, now).globalDaily;
    expect(days).toHaveLength(90);
    expect(days[0]?.date).toBe('2026-11-22');
    expect(days[89]?.date).toBe('2026-08-25');
  });

  it('orders monitors by position, those without one last, then by id', () => {
    const at = (id: number, position: number | null) => aMonitor({ id, position });
    const body = renderCharts(
      { monitors: [at(5, 2), at(3, null), at(9, 1), at(1, null), at(7, 1)], overall: 'operational' },
      now,
    );
    expect(body.monitors.map((m) => m.id)).toEqual([7, 9, 5, 1, 3]);
  });
});

describe('renderMinuteData', () => {
  it('lists every monitor in display order with its minute data', () => {
    expect(renderMinuteData([web, api], now)).toEqual({
      monitors: [
        {
          id: 1,
          minute_data: [
            { minute: '2026-11-22T09:31:00Z', response_time: 90, status: 'up' },
            { minute: '2026-11-22T10:29:00Z', response_time: 120, status: 'degraded' },
            { minute: '2026-11-22T10:30:00Z', response_time: 151, status: 'down' },
          ],
        },
        { id: 2, minute_data: [] },
      ],
    });
  });
});
