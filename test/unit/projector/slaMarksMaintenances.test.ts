// Which maintenance events mark the page's SLA summaries: only those whose in-progress time, before
// or after the event, reaches into a month already stored (in any time zone). The current month's
// report is assembled when read, so a maintenance still to come renders no summary.
import { describe, expect, it } from 'vitest';
import { anEvent, aPage, ms, TAG, when } from './given.ts';
import type { MaintenanceDoc } from '../../../projections/types.ts';

const slaMarks = (writes: ReturnType<typeof when>['writes']) =>
  writes.flatMap((w) => (w.op === 'zadd' && w.key === `${TAG}:sla:dirty` ? [[w.member, w.score]] : []));

const doc = (start: string, end: string): MaintenanceDoc => ({
  id: 'm1',
  title: 'Upgrade',
  description: '',
  scheduledStart: ms(start),
  scheduledEnd: ms(end),
  components: [],
  createdAt: ms('2026-10-01T00:00:00Z'),
  updatedAt: ms('2026-10-01T00:00:00Z'),
  started: false,
  completed: false,
  cancelled: false,
});
const withMaintenance = (m: MaintenanceDoc) => ({ ...aPage(), maintenances: { [m.id]: m } });
const moved = (start: string, end: string) =>
  anEvent('maintenance.updated', '2026-11-22T10:00:00Z', {
    maintenance_id: 'm1',
    scheduled_start: start,
    scheduled_end: end,
  });

describe('planBatch: SLA marks of maintenance events', () => {
  it('given a maintenance to come, when it moves within what is to come, then no SLA summary is marked', () => {
    const plan = when(
      { states: { acme: withMaintenance(doc('2026-11-25T10:00:00Z', '2026-11-25T11:00:00Z')) } },
      [moved('2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z')],
    );
    expect(slaMarks(plan.writes)).toEqual([]);
  });

  it('given a past maintenance, when it is edited, then the summaries from its start are marked', () => {
    const plan = when(
      { states: { acme: withMaintenance(doc('2026-09-10T10:00:00Z', '2026-09-10T11:00:00Z')) } },
      [moved('2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z')],
    );
    expect(slaMarks(plan.writes)).toEqual([['acme', ms('2026-09-10T10:00:00Z')]]);
  });

  it('given the last day of a month, when a maintenance of that day moves, then a zone already in the next month has it stored', () => {
    // 12:00 UTC on 30 November is 02:00 on 1 December at UTC+14: November is complete there.
    const now = ms('2026-11-30T12:00:00Z');
    const plan = when(
      { states: { acme: withMaintenance(doc('2026-11-30T08:00:00Z', '2026-11-30T09:00:00Z')) } },
      [moved('2026-12-03T10:00:00Z', '2026-12-03T11:00:00Z')],
      now,
    );
    expect(slaMarks(plan.writes)).toEqual([['acme', ms('2026-11-30T08:00:00Z')]]);
  });
});
