import { describe, expect, it } from 'vitest';
import {
  incidentDailyCounts,
  maintenanceDailyCounts,
  monthsOfIncident,
  monthsOfMaintenance,
} from '../../projections/lists/dailyCounts.ts';
import type { IncidentDoc, MaintenanceDoc } from '../../projections/types.ts';
import { ms } from './monitorSnapshot.ts';

const incident = (startedAt: string): IncidentDoc => ({
  id: startedAt,
  title: 't',
  state: 'investigating',
  startedAt: ms(startedAt),
  resolvedAt: null,
  components: [],
  updates: [],
});
const maintenance = (start: string, end: string, cancelled = false): MaintenanceDoc => ({
  id: start,
  title: 't',
  description: '',
  scheduledStart: ms(start),
  scheduledEnd: ms(end),
  components: [],
  createdAt: 0,
  started: false,
  completed: false,
  cancelled,
});
const days = (month: string, count: number, filled: Record<number, number> = {}) =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `${month}-${String(i + 1).padStart(2, '0')}`,
      filled[i + 1] ?? 0,
    ]),
  );

describe('incidentDailyCounts', () => {
  it('counts every day of a 30-day month by the UTC day of started_at', () => {
    const docs = [
      incident('2026-11-01T00:00:00Z'),
      incident('2026-11-30T23:59:59Z'),
      incident('2026-11-30T00:00:00Z'),
      incident('2026-12-01T00:00:00Z'),
      incident('2026-10-31T23:59:59Z'),
    ];
    const counts = incidentDailyCounts(docs, '2026-11');
    expect(counts).toEqual({
      counts: days('2026-11', 30, { 1: 1, 30: 2 }),
      start_date: '2026-11-01',
      end_date: '2026-11-30',
    });
    expect(Object.keys(counts.counts)).toEqual(Object.keys(days('2026-11', 30)));
    expect(Object.keys(counts)).toEqual(['counts', 'start_date', 'end_date']);
  });

  it('has every day of a 31-day month and of February, zeros included', () => {
    expect(incidentDailyCounts([], '2026-12')).toEqual({
      counts: days('2026-12', 31),
      start_date: '2026-12-01',
      end_date: '2026-12-31',
    });
    expect(incidentDailyCounts([incident('2026-02-28T12:00:00Z')], '2026-02')).toEqual({
      counts: days('2026-02', 28, { 28: 1 }),
      start_date: '2026-02-01',
      end_date: '2026-02-28',
    });
    expect(incidentDailyCounts([], '2028-02').end_date).toBe('2028-02-29');
  });

  it('rejects a month that is not real', () => {
    expect(() => incidentDailyCounts([], '2026-13')).toThrow(RangeError);
    expect(() => incidentDailyCounts([], '2026-1')).toThrow(RangeError);
  });
});

describe('maintenanceDailyCounts', () => {
  it('counts every day a non-cancelled window [start, end) overlaps', () => {
    const docs = [
      maintenance('2026-11-29T22:00:00Z', '2026-12-02T01:00:00Z'), // Nov 29, 30; Dec 1, 2
      maintenance('2026-11-05T10:00:00Z', '2026-11-06T00:00:00Z'), // ends at midnight: Nov 5 only
      maintenance('2026-11-05T23:00:00Z', '2026-11-05T23:30:00Z'),
      maintenance('2026-11-10T10:00:00Z', '2026-11-10T11:00:00Z', true), // cancelled
    ];
    expect(maintenanceDailyCounts(docs, '2026-11').counts).toEqual(
      days('2026-11', 30, { 5: 2, 29: 1, 30: 1 }),
    );
    expect(maintenanceDailyCounts(docs, '2026-12').counts).toEqual(days('2026-12', 31, { 1: 1, 2: 1 }));
  });
});

describe('monthsOf', () => {
  it('puts an incident in the month of started_at', () => {
    expect(monthsOfIncident(incident('2026-11-30T23:59:59Z'))).toEqual(['2026-11']);
  });

  it('puts a maintenance in every month its window overlaps', () => {
    expect(monthsOfMaintenance(maintenance('2026-11-29T22:00:00Z', '2026-12-02T01:00:00Z'))).toEqual([
      '2026-11',
      '2026-12',
    ]);
    expect(monthsOfMaintenance(maintenance('2026-12-31T23:00:00Z', '2027-01-01T00:00:00Z'))).toEqual([
      '2026-12',
    ]);
    expect(monthsOfMaintenance(maintenance('2026-10-31T23:00:00Z', '2027-01-01T01:00:00Z', true))).toEqual([
      '2026-10',
      '2026-11',
      '2026-12',
      '2027-01',
    ]);
  });
});
