import { describe, expect, it } from 'vitest';
import {
  nextAvailabilityChange,
  periods,
  renderAvailability,
} from '../../projections/availability/availability.ts';
import { formatTimestamp } from '../../src/shared/time.ts';
import { aMonitor, ms } from './monitorSnapshot.ts';

const now = ms('2026-11-22T10:00:00Z');
// A crosses the start of the 24h window, B crosses midnight, C lasts 10.7 s.
const A = { start: ms('2026-11-21T09:00:00Z'), end: ms('2026-11-21T11:00:00Z') };
const B = { start: ms('2026-11-21T23:30:00Z'), end: ms('2026-11-22T00:30:00Z') };
const C = { start: ms('2026-11-22T05:00:00Z'), end: ms('2026-11-22T05:00:10.700Z') };
const monitor = aMonitor({ id: 7, name: 'Website', firstAt: ms('2026-01-01T00:00:00Z'), down: [A, B, C] });

describe('renderAvailability', () => {
  it('computes 24h figures over [now − 24h, now), downtime floored to seconds', () => {
    // down: 1 h of A + 1 h of B + 10.7 s of C = 7210.7 s → 7210; 3 failures
    expect(renderAvailability(monitor, '24h', now)).toEqual({
      monitor_id: 7,
      monitor_name: 'Website',
      period: '24h',
      availability: {
        uptime_percentage: 91.655, // 79190 ÷ 86400
        downtime_seconds: 7210,
        total_seconds: 86400,
        mtbf_seconds: 26396, // floor(79190 ÷ 3)
        mttr_seconds: 2403, // floor(7210 ÷ 3)
        incident_count: 3,
      },
      daily_breakdown: [
        // [00:00, 10:00): 30 min of B + 10.7 s of C
        { date: '2026-11-22', uptime_percentage: 94.972, downtime_seconds: 1810 },
        // [10:00, 24:00): 1 h of A + 30 min of B, over 14 h
        { date: '2026-11-21', uptime_percentage: 89.286, downtime_seconds: 5400 },
      ],
    });
  });

  it('keeps the field order of the spec', () => {
    const body = renderAvailability(monitor, '24h', now);
    expect(Object.keys(body)).toEqual([
      'monitor_id',
      'monitor_name',
      'period',
      'availability',
      'daily_breakdown',
    ]);
    expect(Object.keys(body.availability)).toEqual([
      'uptime_percentage',
      'downtime_seconds',
      'total_seconds',
      'mtbf_seconds',
      'mttr_seconds',
      'incident_count',
    ]);
    expect(Object.keys(body.daily_breakdown[0] ?? {})).toEqual([
      'date',
      'uptime_percentage',
      'downtime_seconds',
    ]);
  });

  it('counts the whole of A in 7d, with one entry per day overlapping the period', () => {
    const body = renderAvailability(monitor, '7d', now);
    expect(body.availability).toEqual({
      uptime_percentage: 98.213, // 593990 ÷ 604800
      downtime_seconds: 10810,
      total_seconds: 604800,
      mtbf_seconds: 197996,
      mttr_seconds: 3603,
      incident_count: 3,
    });
    expect(body.daily_breakdown.map((d) => d.date)).toEqual([
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
      '2026-11-19',
      '2026-11-18',
      '2026-11-17',
      '2026-11-16',
      '2026-11-15',
    ]);
    expect(body.daily_breakdown[1]).toEqual({
      date: '2026-11-21',
      uptime_percentage: 89.583,
      downtime_seconds: 9000,
    });
    expect(body.daily_breakdown[7]).toEqual({
      date: '2026-11-15',
      uptime_percentage: 100,
      downtime_seconds: 0,
    });
  });

  it('with no failure: mtbf = total − downtime, mttr = 0; time without data counts as up', () => {
    const quiet = aMonitor({ firstAt: now - 3_600_000 });
    expect(renderAvailability(quiet, '30d', now).availability).toEqual({
      uptime_percentage: 100,
      downtime_seconds: 0,
      total_seconds: 2592000,
      mtbf_seconds: 2592000,
      mttr_seconds: 0,
      incident_count: 0,
    });
  });

  it('counts an open failure until now', () => {
    const open = aMonitor({ firstAt: 0, openDownStart: now - 90_500 });
    expect(renderAvailability(open, '24h', now).availability).toEqual({
      uptime_percentage: 99.896, // 86310 ÷ 86400 = 99.89583…
      downtime_seconds: 90,
      total_seconds: 86400,
      mtbf_seconds: 86310,
      mttr_seconds: 90,
      incident_count: 1,
    });
  });

  it('has 2 daily entries for 24h, 1 when now is exactly midnight', () => {
    expect(renderAvailability(aMonitor(), '24h', now).daily_breakdown).toHaveLength(2);
    const midnight = ms('2026-11-22T00:00:00Z');
    expect(renderAvailability(aMonitor(), '24h', midnight).daily_breakdown).toEqual([
      { date: '2026-11-21', uptime_percentage: 100, downtime_seconds: 0 },
    ]);
  });

  it('has 31 entries for 30d and 366 for 1y', () => {
    expect(renderAvailability(aMonitor(), '30d', now).daily_breakdown).toHaveLength(31);
    const year = renderAvailability(aMonitor(), '1y', now);
    expect(year.availability.total_seconds).toBe(31536000);
    expect(year.daily_breakdown).toHaveLength(366);
    expect(year.daily_breakdown.at(-1)?.date).toBe('2025-11-22');
  });
});

describe('nextAvailabilityChange', () => {
  const renders = (m: typeof monitor, at: number) => periods.map((p) => renderAvailability(m, p, at));

  it('is the next midnight without failures', () => {
    expect(formatTimestamp(nextAvailabilityChange(aMonitor(), now))).toBe('2026-11-23T00:00:00Z');
  });

  it('is 1 ms after an exact midnight, when a new day entry appears', () => {
    const midnight = ms('2026-11-22T00:00:00Z');
    expect(nextAvailabilityChange(aMonitor(), midnight)).toBe(midnight + 1);
  });

  it('is within a second while a failure is open or leaving a window', () => {
    expect(nextAvailabilityChange(aMonitor({ openDownStart: now - 5000 }), now)).toBe(now + 1000);
    expect(nextAvailabilityChange(monitor, now)).toBe(now + 1000); // A straddles now − 24h
  });

  it("follows today's growing part when today holds downtime", () => {
    // today: 1810 s down over a part growing from 36000 s; 94.972 turns 94.973 at L = 36001.990 s
    const m = aMonitor({
      firstAt: 0,
      down: [{ start: ms('2026-11-22T00:00:00Z'), end: ms('2026-11-22T00:30:00Z') }, C],
    });
    const next = nextAvailabilityChange(m, now);
    expect(formatTimestamp(next)).toBe('2026-11-22T10:00:01.990Z');
    expect(renders(m, next - 1)).toEqual(renders(m, now));
    expect(renders(m, next)).not.toEqual(renders(m, now));
  });

  it("follows the oldest day's shrinking part, and a failure about to leave the window", () => {
    // 24h: [2026-11-21T10:00, 24:00) holds 1800 s down; 96.429 turns 96.428 at L = 50398.992 s
    const m = aMonitor({
      firstAt: 0,
      down: [{ start: ms('2026-11-21T12:00:00Z'), end: ms('2026-11-21T12:30:00Z') }],
    });
    const next = nextAvailabilityChange(m, now);
    expect(formatTimestamp(next)).toBe('2026-11-22T10:00:01.008Z');
    expect(renders(m, next - 1)).toEqual(renders(m, now));
    expect(renders(m, next)).not.toEqual(renders(m, now));
    // 1 s down in the oldest day moves its rounding only hours later: the failure leaving comes first.
    const soon = aMonitor({
      firstAt: 0,
      down: [{ start: ms('2026-11-21T10:00:05Z'), end: ms('2026-11-21T10:00:06Z') }],
    });
    expect(formatTimestamp(nextAvailabilityChange(soon, now))).toBe('2026-11-22T10:00:05Z');
  });
});
