import { describe, expect, it } from 'vitest';
import { formatsFor } from '../../projections/locale/format.ts';
import { uptimeTone } from '../../src/statusPage/client/labels.ts';
import { niceCeil } from '../../src/statusPage/client/lineChart.ts';

const SECONDS = [0, 45, 60, 61, 3600, 4320, 3601, 86_400, 93_784, 31_536_000];

describe('status page formatting', () => {
  it('says durations in the largest unit and the next one, in the units of the language', () => {
    expect(SECONDS.map(formatsFor('en').duration)).toEqual([
      '0 sec',
      '45 sec',
      '1 min',
      '1 min 1 sec',
      '1 hr',
      '1 hr 12 min',
      '1 hr',
      '1 day',
      '1 day 2 hr',
      '365 days',
    ]);
    expect(SECONDS.map(formatsFor('de').duration).slice(5, 9)).toEqual([
      '1 Std. 12 Min.',
      '1 Std.',
      '1 Tg.',
      '1 Tg. 2 Std.',
    ]);
    expect(formatsFor('ja').duration(93_784)).toBe('1 日 2 時間');
    expect(formatsFor('fr').durationExact(-9000)).toBe('−2\u202fh 30\u00a0min');
  });

  it('shows percentages with the API precision, as the language writes them', () => {
    expect([formatsFor('en').percent(99.972), formatsFor('en').percent(100)]).toEqual(['99.972%', '100%']);
    expect(formatsFor('de').percent(99.972)).toBe('99,972\u00a0%');
    expect(formatsFor('fr').percentFixed(99.9)).toBe('99,900\u00a0%');
    expect(formatsFor('en').ms(1234.4)).toBe('1,234 ms');
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

describe('the formatters of a locale', () => {
  it('are built once per locale and kept (ICU objects live in native memory: one per request grew the RSS)', () => {
    expect(formatsFor('de')).toBe(formatsFor('de'));
    expect(formatsFor('de')).not.toBe(formatsFor('fr'));
    const at = new Date('2026-11-22T10:05:00Z');
    expect([formatsFor('de').clock(at, 'UTC'), formatsFor('de').clock(at, 'Asia/Tokyo')]).toEqual([
      '10:05',
      '19:05',
    ]);
  });
});
