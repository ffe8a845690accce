// The span a rendered overall holds for: from its latest boundary (included) to its next (excluded).
import { describe, expect, it } from 'vitest';
import { encodeOverallSpan, overallHoldsAt } from '../../projections/embed/overallSpan.ts';

describe('overallHoldsAt', () => {
  const span = encodeOverallSpan({ from: 1_000, until: 5_000 });

  it('holds from the boundary at or before the render up to, not at, the next one', () => {
    expect([999, 1_000, 4_999, 5_000].map((instant) => overallHoldsAt(span, instant))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('holds on a side without a boundary, and always for a render that stored no span', () => {
    expect(overallHoldsAt(encodeOverallSpan({ from: null, until: 5_000 }), -1e15)).toBe(true);
    expect(overallHoldsAt(encodeOverallSpan({ from: 1_000, until: null }), 1e15)).toBe(true);
    expect(overallHoldsAt(encodeOverallSpan({ from: 1_000, until: null }), 999)).toBe(false);
    expect(overallHoldsAt(null, 0)).toBe(true);
  });
});
