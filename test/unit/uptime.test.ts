import { describe, expect, it } from 'vitest';
import { pageDayUptime } from '../../projections/figures/pageDayUptime.ts';
import { bucketUptime } from '../../projections/figures/uptime.ts';
import { DAY_MS } from '../../src/shared/time.ts';
import { aMonitor, ms } from './monitorSnapshot.ts';

const T = (hhmm: string) => ms(`2026-11-22T${hhmm}:00Z`);

describe('bucketUptime', () => {
  it('counts only the part after the first check (observed seconds)', () => {
    const m = aMonitor({ firstAt: T('10:20'), down: [{ start: T('10:50'), end: T('11:10') }] });
    expect(bucketUptime(m, T('10:00'), T('11:00'), T('12:00'))).toBe(75); // 10 of 40 min down
    expect(bucketUptime(m, T('11:00'), T('12:00'), T('12:00'))).toBe(83.333); // 10 of 60
  });

  it('counts only the part before now, an open failure running until now', () => {
    const m = aMonitor({ firstAt: T('08:00'), openDownStart: T('12:20') });
    expect(bucketUptime(m, T('12:00'), T('13:00'), T('12:30'))).toBe(66.667); // 10 of 30 min down
  });

  it('is null when nothing of the bucket is observed', () => {
    expect(bucketUptime(aMonitor(), T('10:00'), T('11:00'), T('12:00'))).toBeNull();
    const m = aMonitor({ firstAt: T('10:20') });
    expect(bucketUptime(m, T('09:00'), T('10:00'), T('12:00'))).toBeNull();
    expect(bucketUptime(m, T('12:00'), T('13:00'), T('12:00'))).toBeNull();
  });

  it('rounds to 3 decimals, an exact half up', () => {
    const m = aMonitor({ firstAt: T('08:00'), down: [{ start: T('10:00'), end: T('10:00') + 1000 }] });
    expect(bucketUptime(m, T('10:00'), T('11:00'), T('12:00'))).toBe(99.972); // 3599 ÷ 3600
    const half = aMonitor({ firstAt: 0, down: [{ start: 100, end: 101 }] });
    expect(bucketUptime(half, 0, 200_000, 300_000)).toBe(100); // 99.9995 exactly
  });

  it('counts degraded as up: only down intervals are downtime', () => {
    const m = aMonitor({ firstAt: T('08:00'), lastStatus: 'degraded' });
    expect(bucketUptime(m, T('10:00'), T('11:00'), T('12:00'))).toBe(100);
  });
});

describe('pageDayUptime', () => {
  const day = ms('2026-11-22T00:00:00Z');
  const now = day + DAY_MS;

  it('averages the monitors with data that day, before rounding', () => {
    const a = aMonitor({ firstAt: day, down: [{ start: T('06:00'), end: T('07:00') }] }); // 95.8333…
    const b = aMonitor({ firstAt: day }); // 100
    const c = aMonitor({ firstAt: now + 1 }); // no data that day: not counted
    expect(pageDayUptime([a, b, c], day, now)).toBe(97.917);
  });

  it('is null when no monitor has data that day', () => {
    expect(pageDayUptime([aMonitor()], day, now)).toBeNull();
    expect(pageDayUptime([], day, now)).toBeNull();
  });
});
