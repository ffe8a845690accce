// Round trips of the SLA model's values, and the report text equal to the report object's JSON.
import { describe, expect, it } from 'vitest';
import { slaReport, slaReportJson } from '../../../projections/sla/report.ts';
import { combine, summarize } from '../../../projections/sla/summary.ts';
import { decodeMeta, decodeSummaries, encodeMeta, encodeSummaries } from '../../../projections/sla/codec.ts';

const DAY = 86_400_000;
const from = Date.parse('2026-10-01T00:00:00Z');
const october = summarize({
  zone: 'UTC',
  from,
  to: from + 31 * DAY,
  excluded: [{ start: from + DAY, end: from + DAY + 3_600_000 }],
  failures: [{ start: from + 30 * DAY + 1000, end: from + 32 * DAY }],
});
const november = summarize({
  zone: 'UTC',
  from: from + 31 * DAY,
  to: from + 40 * DAY,
  excluded: [],
  failures: [{ start: from + 30 * DAY + 1000, end: from + 32 * DAY }],
});

describe('SLA codecs', () => {
  it('round-trips the meta and the month summaries', () => {
    const meta = { time_zone: 'Asia/Kathmandu', current: '2026-11' };
    expect(decodeMeta(encodeMeta(meta))).toEqual(meta);
    const summaries = new Map([[11, october]]);
    expect(decodeSummaries(encodeSummaries(summaries))).toEqual(summaries);
    expect(decodeSummaries(null)).toBeNull();
  });

  it('writes the report text exactly as JSON.stringify of the report', () => {
    const config = {
      id: 11,
      name: 'A "quoted" name',
      type: 'http',
      impact: 'partial' as const,
      position: null,
    };
    const input = {
      slug: 'acme',
      period: '2026-Q4',
      zone: 'UTC',
      start: from,
      end: from + 92 * DAY,
      asOf: from + 40 * DAY,
      excludeMaintenance: true,
      monitors: [{ config, target: 99.95, summary: combine(october, november), parts: [october, november] }],
    };
    expect(slaReportJson(input).json).toBe(JSON.stringify(slaReport(input)));
  });
});
