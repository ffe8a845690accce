import { describe, expect, it } from 'vitest';
import {
  bucketKeys,
  decodeHours,
  decodeSlot,
  hourIncrements,
  minuteIncrements,
  slotOf,
} from '../../../projections/buckets/codec.ts';
import { countChecks } from '../../../projections/buckets/writes.ts';

const at = Date.parse('2026-11-22T10:37:30Z');
const day = Math.floor(at / 86_400_000);
const monitor = { tag: 'sp:{v1.p0}', monitorId: 7 };

/** Applies hincrby and expire writes to in-memory hashes, as Redis would. */
const apply = (writes: ReturnType<typeof countChecks>) => {
  const hashes = new Map<string, Record<string, string>>();
  const ttls = new Map<string, number>();
  for (const w of writes) {
    if (w.op === 'hincrby') {
      const hash = hashes.get(w.key) ?? {};
      hashes.set(w.key, hash);
      hash[w.field] = String(Number(hash[w.field] ?? 0) + w.by);
    } else if (w.op === 'expire') ttls.set(w.key, w.seconds);
    else throw new Error(`unexpected ${w.op}`);
  }
  return { hashes, ttls };
};

describe('buckets codec', () => {
  it('counts a check into the fields of its minute of the half-hour slot and its hour of the UTC day', () => {
    expect(minuteIncrements({ at, status: 'down', responseTimeMs: 250 })).toEqual([
      ['7:n', 1],
      ['7:rt', 250],
      ['7:d', 1],
    ]);
    expect(hourIncrements({ at, status: 'up', responseTimeMs: 250 })).toEqual([
      ['10:n', 1],
      ['10:rt', 250],
    ]);
    expect(slotOf(at)).toBe(Math.floor(Date.parse('2026-11-22T10:30:00Z') / 1_800_000));
  });

  it('decodes what it encodes: minutes from the slot hash, hours from the day hash', () => {
    const check = { at, status: 'degraded', responseTimeMs: 40 };
    const { hashes } = apply(countChecks(monitor, [check, check], at, null));
    const minutes = hashes.get(bucketKeys(monitor).minutes(slotOf(at)))!;
    const minuteStart = Math.floor(at / 60_000) * 60_000;
    expect(decodeSlot(minutes, slotOf(at))).toEqual([[minuteStart, { n: 2, rt: 80, d: 0, g: 2 }]]);
    const hours = hashes.get(bucketKeys(monitor).hours(day))!;
    expect(decodeHours(hours, day)).toEqual([[day * 86_400_000 + 10 * 3_600_000, { n: 2, rt: 80 }]]);
  });

  it('keeps every slot within the 128 fields of a compact hash, whatever the statuses', () => {
    const slotStart = slotOf(at) * 1_800_000;
    const checks = Array.from({ length: 30 * 4 }, (_, i) => ({
      at: slotStart + i * 15_000,
      status: i % 2 === 0 ? 'down' : 'degraded',
      responseTimeMs: i,
    }));
    const { hashes } = apply(countChecks(monitor, checks, slotStart + 1_800_000, null));
    expect(Object.keys(hashes.get(bucketKeys(monitor).minutes(slotOf(at)))!)).toHaveLength(120);
  });

  it('keeps a slot as long as the 240-minute window can read it, and skips slots no render reads', () => {
    const check = { at, status: 'up', responseTimeMs: 1 };
    const slotEnd = (slotOf(at) + 1) * 1_800_000;
    const { ttls } = apply(countChecks(monitor, [check], at, null));
    // The window (240 minutes) plus an hour's margin after the slot's end.
    expect(ttls.get(bucketKeys(monitor).minutes(slotOf(at)))).toBe((slotEnd + 5 * 3_600_000 - at) / 1000);
    const late = apply(countChecks(monitor, [check], slotEnd + 5 * 3_600_000, null));
    expect(late.hashes.has(bucketKeys(monitor).minutes(slotOf(at)))).toBe(false);
    expect(late.hashes.has(bucketKeys(monitor).hours(day))).toBe(true);
  });

  it("sets a hash's expiry with its first check only: the latest counted check made the hashes it shares", () => {
    const check = { at, status: 'up', responseTimeMs: 1 };
    const expiries = (latest: number | null) =>
      countChecks(monitor, [check], at, latest).flatMap((w) => (w.op === 'expire' ? [w.key] : []));
    const minutes = bucketKeys(monitor).minutes(slotOf(at));
    const hours = bucketKeys(monitor).hours(day);
    expect(expiries(null)).toEqual([minutes, hours]);
    expect(expiries(at - 60_000)).toEqual([]); // same slot, same day
    expect(expiries((slotOf(at) - 1) * 1_800_000)).toEqual([minutes]); // the slot before, same day
    expect(expiries(day * 86_400_000 - 60_000)).toEqual([minutes, hours]); // the day before
  });

  it('reads a minute without checks as no bucket', () => {
    expect(decodeSlot({ '3:rt': '0', '4:n': '0' }, 1)).toEqual([]);
  });
});
