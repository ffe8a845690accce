import { describe, expect, it } from 'vitest';
import { duration, percent } from '../../src/statusPage/client/format.ts';
import { uptimeTone } from '../../src/statusPage/client/labels.ts';
import { niceCeil } from '../../src/statusPage/client/lineChart.ts';

describe('status page formatting', () => {
  it('says durations in the largest unit and the next one', () => {
    expect([0, 45, 60, 61, 3600, 4320, 3601, 86_400, 93_784, 31_536_000].map(duration)).toEqual([
      '0 s',
      '45 s',
      '1 min',
      '1 min 1 s',
      '1 h',
      '1 h 12 min',
      '1 h',
      '1 d',
      '1 d 2 h',
      '365 d',
    ]);
  });

  it('shows percentages with the API precision, localised', () => {
    expect(percent(99.972)).toBe('99.972 %');
    expect(percent(100)).toBe('100 %');
  });

  it('rounds chart scales up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([0, 1, 3, 120, 240, 2600, 9000].map(niceCeil)).toEqual([100, 1, 5, 200, 250, 5000, 10000]);
  });

  it('colours days by uptime', () => {
    expect([100, 99.95, 99.9, 99, 98, 95, 50].map(uptimeTone)).toEqual([
      'ok',
      'ok',
      'minor',
      'minor',
      'major',
      'major',
      'critical',
    ]);
  });
});
