import { describe, expect, it } from 'vitest';
import {
  decodeHead,
  decodeInterval,
  decodeRecent,
  encodeHead,
  encodeInterval,
  encodeRecent,
  recentHourOf,
  type TimelineHead,
} from '../../../projections/timeline/codec.ts';

describe('timeline codec', () => {
  it('round-trips recent checks as "<position>:<status code>" scored by their epoch ms', () => {
    for (const status of ['up', 'down', 'degraded'] as const) {
      const check = { at: 1_700_000_000_000, position: 12345678901234567890n, status };
      expect(decodeRecent(encodeRecent(check), String(check.at))).toEqual(check);
      expect(decodeRecent(encodeRecent(check), check.at)).toEqual(check);
    }
    expect(encodeRecent({ at: 5, position: 7n, status: 'degraded' })).toBe('7:g');
    expect(decodeRecent('7:d', '1700000000000')).toEqual({
      at: 1_700_000_000_000,
      position: 7n,
      status: 'down',
    });
  });

  it('keeps a recent check in the set of its UTC hour', () => {
    expect(recentHourOf(Date.parse('2026-11-22T10:59:59.999Z'))).toBe(
      Date.parse('2026-11-22T10:00:00Z') / 3_600_000,
    );
    expect(recentHourOf(Date.parse('2026-11-22T11:00:00Z'))).toBe(
      Date.parse('2026-11-22T11:00:00Z') / 3_600_000,
    );
  });

  it('round-trips failures as "<start>:<end>"', () => {
    expect(encodeInterval({ start: 10, end: 20 })).toBe('10:20');
    expect(decodeInterval('10:20')).toEqual({ start: 10, end: 20 });
  });

  it('round-trips the head hash, with open_down only while down', () => {
    const up: TimelineHead = { first: 1, last: { at: 9, position: 3n, status: 'up' }, openDownStart: null };
    const down: TimelineHead = { ...up, last: { ...up.last, status: 'down' }, openDownStart: 8 };
    expect(decodeHead(Object.fromEntries(encodeHead(up)))).toEqual(up);
    expect(decodeHead({ ...Object.fromEntries(encodeHead(down)), open_down: '8' })).toEqual(down);
    expect(decodeHead({})).toBeNull();
  });
});
