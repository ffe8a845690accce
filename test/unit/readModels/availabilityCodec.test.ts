import { describe, expect, it } from 'vitest';
import { toBytes } from '../../../projections/store/bytes.ts';
import { decodeAvailability, encodeAvailability } from '../../../projections/availability/codec.ts';

// A year of quiet days, as the 1y period renders them.
const body = JSON.stringify({
  monitor_id: 1,
  period: '1y',
  daily_breakdown: Array.from({ length: 365 }, (_, i) => ({
    date: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    uptime_percentage: 100,
    downtime_seconds: 0,
  })),
});

describe('the availability codec', () => {
  it('gives back the exact body and the ETag of the uncompressed bytes', () => {
    const stored = encodeAvailability(body);
    const decoded = decodeAvailability(Buffer.from(stored, 'utf8'));
    expect(decoded?.body.toString('utf8')).toBe(body);
    expect(decoded?.etag).toBe(toBytes(body).split('\n')[0]);
    expect(stored.length).toBeLessThan(body.length / 10);
  });

  it('reads a body stored as plain JSON, and nothing as nothing', () => {
    const decoded = decodeAvailability(Buffer.from(toBytes(body), 'utf8'));
    expect(decoded?.body.toString('utf8')).toBe(body);
    expect(decodeAvailability(null)).toBeNull();
  });
});
