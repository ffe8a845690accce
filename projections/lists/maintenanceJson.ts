// The Maintenance resource of read-api.md. Its status follows explicit transitions and the clock
// (decisions.md), so it is rendered for a given now and re-rendered at nextMaintenanceChange.
import { formatTimestamp } from '../../src/shared/time.ts';
import type { Maintenance } from '../../src/contract/responseSchemas.ts';
import type { MaintenanceDoc, MaintenanceStatus } from '../types.ts';

export const maintenanceStatus = (doc: MaintenanceDoc, nowMs: number): MaintenanceStatus => {
  if (doc.cancelled) return 'cancelled';
  if (doc.completed || nowMs >= doc.scheduledEnd) return 'completed';
  if (doc.started || doc.scheduledStart <= nowMs) return 'in_progress';
  return 'scheduled';
};

/** The next instant the status changes by the clock alone; null when only an event can change it. */
export const nextMaintenanceChange = (doc: MaintenanceDoc, nowMs: number): number | null => {
  if (doc.cancelled || doc.completed || nowMs >= doc.scheduledEnd) return null;
  if (!doc.started && nowMs < doc.scheduledStart) return doc.scheduledStart;
  return doc.scheduledEnd;
};

export const maintenanceJson = (doc: MaintenanceDoc, nowMs: number): Maintenance => ({
  id: doc.id,
  title: doc.title,
  description: doc.description,
  status: maintenanceStatus(doc, nowMs),
  scheduled_start: formatTimestamp(doc.scheduledStart),
  scheduled_end: formatTimestamp(doc.scheduledEnd),
  components: [...doc.components],
  created_at: formatTimestamp(doc.createdAt),
});
