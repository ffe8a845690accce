import { describe, expect, it } from 'vitest';
import { growingChange, shrinkingChange } from '../../projections/figures/nextRoundingChange.ts';
import { uptimeThousandths } from '../../projections/figures/percent.ts';

const value = (down: number, part: number) => uptimeThousandths(part - down, part);

describe('growingChange / shrinkingChange', () => {
  it('find the first part length at which the rounded uptime differs (checked by brute force)', () => {
    for (const [down, part] of [
      [1_810_000, 36_000_000],
      [1000, 3_600_000],
      [7_000, 86_399_000],
      [59_000, 60_000],
    ] as const) {
      const grown = growingChange(down, part);
      expect(value(down, grown)).not.toBe(value(down, part));
      for (let l = part + 1; l < grown; l += Math.max(1, Math.floor((grown - part) / 500)))
        expect(value(down, l)).toBe(value(down, part));
      expect(value(down, grown - 1)).toBe(value(down, part));

      const shrunk = shrinkingChange(down, part);
      expect(shrunk).not.toBeNull();
      if (shrunk === null) continue;
      expect(value(down, shrunk)).not.toBe(value(down, part));
      expect(value(down, shrunk + 1)).toBe(value(down, part));
    }
  });

  it('never changes without downtime', () => {
    expect(growingChange(0, 1000)).toBe(Infinity);
    expect(shrinkingChange(0, 1000)).toBeNull();
    expect(growingChange(1, 1e9)).toBe(Infinity); // already rounds to 100
    expect(shrinkingChange(1000, 1000)).toBeNull(); // already 0
  });
});
