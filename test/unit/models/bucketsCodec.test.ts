import { describe, expect, it } from 'vitest';
import {
  decodeHours,
  decodeMinute,
  hourIncrements,
  minuteFields,
  minuteIncrements,
} from '../../../src/models/buckets/codec.ts';

const at = Date.parse('2026-11-22T10:07:30Z');
const day = Math.floor(at / 86_400_000);

describe('buckets codec', () => {
  it('counts a check into the fields of its minute and hour of the UTC day', () => {
    expect(minuteIncrements({ at, status: 'down', responseTimeMs: 250 })).toEqual([
      ['607:n', 1],
      ['607:rt', 250],
      ['607:d', 1],
    ]);
    expect(hourIncrements({ at, status: 'up', responseTimeMs: 250 })).toEqual([
      ['10:n', 1],
      ['10:rt', 250],
    ]);
  });

  it('decodes what it encodes: a minute read by minuteFields, hours from the day hash', () => {
    const check = { at, status: 'degraded', responseTimeMs: 40 };
    const hash = Object.fromEntries(
      [...minuteIncrements(check), ...minuteIncrements(check)].map(([f]) => [f, '0']),
    );
    for (const [field, by] of [...minuteIncrements(check), ...minuteIncrements(check)])
      hash[field] = String(Number(hash[field]) + by);
    const minuteStart = Math.floor(at / 60_000) * 60_000;
    expect(decodeMinute(minuteFields(minuteStart).map((f) => hash[f] ?? null))).toEqual({
      n: 2,
      rt: 80,
      d: 0,
      g: 2,
    });
    const hours = Object.fromEntries(hourIncrements(check).map(([f, by]) => [f, String(by)]));
    expect(decodeHours(hours, day)).toEqual([[day * 86_400_000 + 10 * 3_600_000, { n: 1, rt: 40 }]]);
  });

  it('reads a minute without checks as no bucket', () => {
    expect(decodeMinute([null, null, null, null])).toBeNull();
  });
});
