// The write side's SLA settings (sla-reports.md): zones the runtime knows, targets 0 < t ≤ 100
// with at most 3 decimals; and the zone arithmetic every report starts from.
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/events/parseEvent.ts';
import { dayNumber, dayStart } from '../../projections/sla/zone.ts';
import { periodBounds, parsePeriod } from '../../projections/sla/periods.ts';
import { csvText } from '../../projections/sla/report.ts';
import { combine, summarize } from '../../projections/sla/summary.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const configured = (data: object) =>
  parseEvent(
    {
      type: 'page.configured',
      page: 'acme',
      at: '2026-11-22T11:00:00Z',
      data: { title: 'Acme', plan: 'pro', ...data },
    },
    0,
    NOW,
  );
const monitor = (data: object) =>
  parseEvent(
    {
      type: 'monitor.configured',
      page: 'acme',
      at: '2026-11-22T11:00:00Z',
      data: { monitor_id: 1, name: 'API', ...data },
    },
    0,
    NOW,
  );
const rejected = (result: object) => 'message' in result;

describe('SLA settings at ingest', () => {
  it('accepts IANA zones, targets and the flag', () => {
    for (const time_zone of ['UTC', 'Europe/Berlin', 'America/St_Johns', 'Asia/Kathmandu'])
      expect(rejected(configured({ time_zone }))).toBe(false);
    for (const sla_target of [100, 99.95, 99.999, 0.001])
      expect(rejected(configured({ sla_target }))).toBe(false);
    expect(rejected(configured({ sla_exclude_maintenance: false }))).toBe(false);
    expect(rejected(monitor({ sla_target: 99.5 }))).toBe(false);
  });

  it('refuses unknown zones, offsets and bad targets', () => {
    for (const time_zone of ['Mars/Olympus', '+01:00', 'CET ', '', 42])
      expect([time_zone, rejected(configured({ time_zone }))]).toEqual([time_zone, true]);
    for (const sla_target of [0, -1, 100.001, 99.9999, '99.9'])
      expect([sla_target, rejected(configured({ sla_target }))]).toEqual([sla_target, true]);
    expect(rejected(configured({ sla_exclude_maintenance: 'yes' }))).toBe(true);
    expect(rejected(monitor({ sla_target: 101 }))).toBe(true);
  });
});

describe('local days and periods', () => {
  const hours = (zone: string, label: string) => {
    const [start, end] = periodBounds(zone, parsePeriod(label)!);
    return (end - start) / 3_600_000;
  };
  it('makes DST months 743 and 745 hours long, and odd offsets exact', () => {
    expect([
      hours('Europe/Berlin', '2026-03'),
      hours('Europe/Berlin', '2026-10'),
      hours('UTC', '2026-10'),
    ]).toEqual([743, 745, 744]);
    expect(hours('America/St_Johns', '2026-11')).toBe(721);
    expect(new Date(dayStart('Asia/Kathmandu', dayNumber(2026, 1, 1))).toISOString()).toBe(
      '2025-12-31T18:15:00.000Z',
    );
    expect(new Date(dayStart('America/St_Johns', dayNumber(2026, 7, 1))).toISOString()).toBe(
      '2026-07-01T02:30:00.000Z',
    );
    // Midnight that does not exist (Santiago springs forward at 24:00): the day starts at 01:00.
    expect(new Date(dayStart('America/Santiago', dayNumber(2026, 9, 6))).toISOString()).toBe(
      '2026-09-06T04:00:00.000Z',
    );
  });
  it('parses only the three forms', () => {
    expect(
      ['2026-10', '2026-Q4', '2026', '2026-13', '2026-Q0', '26', '2026-1'].map(
        (p) => parsePeriod(p)?.months ?? null,
      ),
    ).toEqual([1, 3, 12, null, null, null, null]);
  });
});

describe('summaries', () => {
  it('count a failure across two months once, with its whole length', () => {
    const failure = { start: 900, end: 2500 };
    const a = summarize({ zone: 'UTC', from: 0, to: 1000, excluded: [], failures: [failure] });
    const b = summarize({
      zone: 'UTC',
      from: 1000,
      to: 3000,
      excluded: [{ start: 1200, end: 1300 }],
      failures: [failure, { start: 2800, end: 2900 }],
    });
    expect(combine(a, b)).toMatchObject({ total: 3000, excluded: 100, down: 1600, count: 2, longest: 1500 });
  });
});

describe('CSV cells', () => {
  it('quote by RFC 4180 and defuse formulas', () => {
    expect(['API', 'a,b', 'say "hi"', '=1+1', '+x', '-x', '@x', '\tx', '\rx', 'x\ny'].map(csvText)).toEqual([
      'API',
      '"a,b"',
      '"say ""hi"""',
      "'=1+1",
      "'+x",
      "'-x",
      "'@x",
      "'\tx",
      '"\'\rx"',
      '"x\ny"',
    ]);
  });
});
