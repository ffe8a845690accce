// An event as the log holds it and projections consume it: defaults applied, timestamps
// normalised to UTC, the page token replaced by its digest. Parsed again when read (the log is
// not trusted blindly), as a union discriminated on `type`.
import { z } from 'zod';
import { eventOf } from './catalogue.ts';
import { CheckRecorded } from './check.ts';
import { Timestamp } from './common.ts';
import { IncidentOpened, IncidentUpdated } from './incident.ts';
import { MaintenanceScheduled, MaintenanceTransition, MaintenanceUpdated } from './maintenance.ts';
import { MonitorConfigured, MonitorRemoved } from './monitor.ts';
import { PageDeleted, StoredPageConfigured } from './page.ts';

const base = { page: z.string(), at: Timestamp, position: z.string() };
const event = <T extends string, D extends z.ZodTypeAny>(type: T, data: D) =>
  eventOf(type, data).extend(base);

export const StoredEvent = z.discriminatedUnion('type', [
  event('page.configured', StoredPageConfigured),
  event('page.deleted', PageDeleted),
  event('monitor.configured', MonitorConfigured),
  event('monitor.removed', MonitorRemoved),
  event('check.recorded', CheckRecorded),
  event('incident.opened', IncidentOpened),
  event('incident.updated', IncidentUpdated),
  event('maintenance.scheduled', MaintenanceScheduled.innerType()),
  event('maintenance.updated', MaintenanceUpdated.innerType()),
  event('maintenance.started', MaintenanceTransition),
  event('maintenance.completed', MaintenanceTransition),
  event('maintenance.cancelled', MaintenanceTransition),
]);
export type StoredEvent = z.infer<typeof StoredEvent>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event's type and data exactly as the log stores them, without its page, time and position. */
export type StoredEventBody = DistributiveOmit<StoredEvent, keyof typeof base>;

/**
 * An event as projections consume it: `at` in epoch milliseconds, as the log's column gives it
 * (the ISO text of StoredEvent is the wire's form, written by ingest, never parsed back here).
 */
export type ProjectedEvent = StoredEvent extends infer E
  ? E extends unknown
    ? Omit<E, 'at'> & { at: number }
    : never
  : never;
export type ProjectedEventOf<T extends StoredEvent['type']> = Extract<ProjectedEvent, { type: T }>;
