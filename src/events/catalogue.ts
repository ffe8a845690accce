// The event catalogue of ingest.md: the envelope and one data schema per type.
import { z } from 'zod';
import { CheckRecorded } from './check.ts';
import { EntityId, PageSlug, Timestamp } from './common.ts';
import { IncidentOpened, IncidentUpdated } from './incident.ts';
import { MaintenanceScheduled, MaintenanceTransition, MaintenanceUpdated } from './maintenance.ts';
import { MonitorConfigured, MonitorRemoved } from './monitor.ts';
import { PageConfigured, PageDeleted } from './page.ts';

/** Data schemas of what agents send, by event type. */
export const incomingDataSchemas = {
  'page.configured': PageConfigured,
  'page.deleted': PageDeleted,
  'monitor.configured': MonitorConfigured,
  'monitor.removed': MonitorRemoved,
  'check.recorded': CheckRecorded,
  'incident.opened': IncidentOpened,
  'incident.updated': IncidentUpdated,
  'maintenance.scheduled': MaintenanceScheduled,
  'maintenance.updated': MaintenanceUpdated,
  'maintenance.started': MaintenanceTransition,
  'maintenance.completed': MaintenanceTransition,
  'maintenance.cancelled': MaintenanceTransition,
} as const;

export type EventType = keyof typeof incomingDataSchemas;
export const eventTypes = Object.keys(incomingDataSchemas) as [EventType, ...EventType[]];
export const EventTypeSchema = z.enum(eventTypes);

export const Envelope = z
  .object({
    id: EntityId.optional(),
    type: z.string(),
    page: PageSlug,
    at: Timestamp,
    data: z.unknown(),
  })
  .strict();
export type Envelope = z.infer<typeof Envelope>;
