// The event catalogue of ingest.md: the envelope and, per type, the data agents send.
import { z } from 'zod';
import { CheckRecorded } from './check.ts';
import { EntityId, PageSlug, Timestamp } from './common.ts';
import { IncidentOpened, IncidentUpdated } from './incident.ts';
import { MaintenanceScheduled, MaintenanceTransition, MaintenanceUpdated } from './maintenance.ts';
import { IncomingMonitorConfigured, MonitorRemoved } from './monitor.ts';
import { PageConfigured, PageDeleted } from './page.ts';
import { must } from '../shared/must.ts';

/** One member of an event union: the type's literal name and its data schema. */
export const eventOf = <T extends string, D extends z.ZodTypeAny>(type: T, data: D) =>
  z.object({ type: z.literal(type), data });

/** What agents send, as a union on `type`: each event type of ingest.md with its data schema. */
export const IncomingEvent = z.discriminatedUnion('type', [
  eventOf('page.configured', PageConfigured),
  eventOf('page.deleted', PageDeleted),
  eventOf('monitor.configured', IncomingMonitorConfigured),
  eventOf('monitor.removed', MonitorRemoved),
  eventOf('check.recorded', CheckRecorded),
  eventOf('incident.opened', IncidentOpened),
  eventOf('incident.updated', IncidentUpdated),
  eventOf('maintenance.scheduled', MaintenanceScheduled),
  eventOf('maintenance.updated', MaintenanceUpdated),
  eventOf('maintenance.started', MaintenanceTransition),
  eventOf('maintenance.completed', MaintenanceTransition),
  eventOf('maintenance.cancelled', MaintenanceTransition),
]);
export type IncomingEvent = z.infer<typeof IncomingEvent>;

const [firstType, ...otherTypes] = IncomingEvent.options.map((option) => option.shape.type.value);
export const EventTypeSchema = z.enum([must(firstType, 'an event type'), ...otherTypes]);

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
