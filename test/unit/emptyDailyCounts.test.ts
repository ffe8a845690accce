// The all-zero month the API renders must be byte-identical to the projector's render of a month
// without items, so a month's ETag does not change when its first item is removed again.
import { describe, expect, it } from 'vitest';
import { incidentDailyCounts } from '../../projections/lists/dailyCounts.ts';
import { emptyDailyCounts } from '../../src/readModels/lists/emptyDailyCounts.ts';

describe('emptyDailyCounts', () => {
  it.each(['2026-11', '2026-02', '2024-02', '2100-02', '2000-02', '2026-12', '2026-04', '1970-01'])(
    '%s',
    (month) => {
      expect(emptyDailyCounts(month)).toBe(JSON.stringify(incidentDailyCounts([], month)));
    },
  );

  it('lists every day, keys ascending, with start and end dates', () => {
    const body = JSON.parse(emptyDailyCounts('2024-02')) as {
      counts: Record<string, number>;
      start_date: string;
      end_date: string;
    };
    expect(Object.keys(body.counts)).toHaveLength(29);
    expect(Object.keys(body.counts)).toEqual([...Object.keys(body.counts)].sort());
    expect([body.start_date, body.end_date]).toEqual(['2024-02-01', '2024-02-29']);
  });
});
