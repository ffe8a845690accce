import { describe, expect, it } from 'vitest';
import { formatMonthIndex, monthBounds, monthIndexOf, utcDate } from '../../projections/figures/calendar.ts';
import { DAY_MS } from '../../src/shared/time.ts';

describe('calendar', () => {
  it('agrees with Date on every day from 1969 to 2101, leap days included', () => {
    for (let day = -400; day < 48_000; day++) {
      const at = day * DAY_MS + 43_210_987;
      const iso = new Date(at).toISOString();
      expect(utcDate(at)).toBe(iso.slice(0, 10));
      expect(formatMonthIndex(monthIndexOf(at))).toBe(iso.slice(0, 7));
    }
  });

  it('bounds a month, December included', () => {
    expect(monthBounds('2026-12')).toEqual({
      month: '2026-12',
      start: Date.parse('2026-12-01T00:00:00Z'),
      end: Date.parse('2027-01-01T00:00:00Z'),
      days: 31,
    });
    expect(monthBounds('2024-02').days).toBe(29);
    expect(monthBounds('2100-02').days).toBe(28);
    expect(() => monthBounds('2026-00')).toThrow(RangeError);
    expect(() => monthBounds('26-01')).toThrow(RangeError);
  });

  it('writes four-digit years before 1000, and reads them back', () => {
    const at = Date.parse('0999-05-01T00:00:00Z');
    expect(utcDate(at)).toBe('0999-05-01');
    expect(formatMonthIndex(monthIndexOf(at))).toBe('0999-05');
    expect(monthBounds(formatMonthIndex(monthIndexOf(at))).start).toBe(at);
    expect(formatMonthIndex(monthIndexOf(Date.parse('0042-12-31T23:59:59Z')))).toBe('0042-12');
  });
});
