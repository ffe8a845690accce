import { describe, expect, it } from 'vitest';
import { fromBytes, toBytes } from '../../../projections/store/bytes.ts';
import {
  formatActive,
  formatMonitorOfPage,
  parseActive,
  parseMonitorOfPage,
} from '../../../projections/store/control/codec.ts';
import { decodeEmbed, encodeEmbed } from '../../../projections/embed/codec.ts';
import { listScore } from '../../../projections/lists/codec.ts';

describe('small codecs', () => {
  it('round-trips the active pointer', () => {
    expect(formatActive({ version: 12, partitions: 4 })).toBe('12:4');
    expect(parseActive('12:4')).toEqual({ version: 12, partitions: 4 });
    expect(parseActive(null)).toBeNull();
    expect(parseActive('12')).toBeNull();
  });

  it('round-trips a monitor of a page in the availability dirty set', () => {
    expect(formatMonitorOfPage({ slug: 'a-b', monitorId: 7 })).toBe('a-b|7');
    expect(parseMonitorOfPage('a-b|7')).toEqual({ slug: 'a-b', monitorId: 7 });
  });

  it('round-trips stored bodies with their ETag', () => {
    const stored = fromBytes(toBytes('{"a":"b\\nc"}'));
    expect(stored?.body).toBe('{"a":"b\\nc"}');
    expect(stored?.etag).toMatch(/^"[\w-]+"$/);
    expect(fromBytes(null)).toBeNull();
  });

  it('round-trips the embed parts in field order', () => {
    const parts = { head: '"page":"a"', incidents: '[]', tail: '"dns_only":false' };
    expect(encodeEmbed(parts).map(([f]) => f)).toEqual(['head', 'incidents', 'tail']);
    expect(decodeEmbed(Object.fromEntries(encodeEmbed(parts)))).toEqual(parts);
    expect(decodeEmbed({ head: 'h' })).toEqual({ head: 'h' });
  });
});

describe('list codec', () => {
  it('scores items so that ascending order is newest first', () => {
    const older = listScore(Date.parse('2026-11-01T00:00:00Z'));
    const newer = listScore(Date.parse('2026-11-02T00:00:00Z'));
    expect(newer).toBeLessThan(older);
    expect(-older).toBe(Date.parse('2026-11-01T00:00:00Z'));
  });
});
