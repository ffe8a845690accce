// Which pages' SLA reports a batch changes, and from when (docs/read-models.md, "SLA reports").
// Kept beside the evolved batch it reads: projections/sla/ cannot import evolveBatch back.
import { inProgressSpan } from '../sla/settings.ts';
import type { PageState } from '../types.ts';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { markSlaDirty } from '../sla/writes.ts';
import type { WriteOp } from '../store/writeOps.ts';
import type { EvolvedBatch } from './evolveBatch.ts';

const AHEAD_MS = 14 * 3_600_000; // zones are at most 14 h ahead of UTC

/**
 * Every stored (complete) local month ends by this, in any zone: the start of the current month
 * where it began first (at UTC+14; in the last 14 h of a UTC month that is the next one's).
 */
const currentMonthFloor = (now: number): number => {
  const date = new Date(now + AHEAD_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) - AHEAD_MS;
};

export const slaMarks = (
  batch: EvolvedBatch,
  {
    tag,
    events,
    before,
    changedTimelines,
    now,
  }: Readonly<{
    tag: string;
    events: readonly ProjectedEvent[];
    /** The pages' documents before the batch. */
    before: ReadonlyMap<string, PageState | null>;
    changedTimelines: ReadonlySet<number>;
    now: number;
  }>,
): WriteOp[] => {
  const from = new Map<string, number>();
  const floor = currentMonthFloor(now);
  const mark = (slug: string, at: number) => from.set(slug, Math.min(from.get(slug) ?? at, at));
  for (const event of events) {
    switch (event.type) {
      case 'page.configured':
      case 'page.deleted':
      case 'monitor.configured':
      case 'monitor.removed':
        mark(event.page, 0);
        break;
      case 'maintenance.scheduled':
      case 'maintenance.updated':
      case 'maintenance.started':
      case 'maintenance.completed':
      case 'maintenance.cancelled': {
        const id = event.data.maintenance_id;
        const docs = [
          before.get(event.page)?.maintenances[id],
          batch.states.get(event.page)?.maintenances[id],
        ];
        // A stored month changes only if the maintenance reaches into one; the current month's
        // report is assembled when read.
        for (const doc of docs) {
          const start = doc ? inProgressSpan(doc).start : Infinity;
          if (start < floor) mark(event.page, start);
        }
        break;
      }
      case 'check.recorded': // below, per monitor
      case 'incident.opened': // incidents are not in the reports
      case 'incident.updated':
        break;
    }
  }
  for (const [monitorId, checks] of batch.checks) {
    const slug = batch.pageOf.get(monitorId);
    const earliest = Math.min(...checks.map((c) => c.at));
    if (slug !== undefined && (changedTimelines.has(monitorId) || earliest < floor)) mark(slug, earliest);
  }
  return [...from].map(([slug, at]) => markSlaDirty(tag, slug, at));
};
