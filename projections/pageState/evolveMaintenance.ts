// One maintenance document from its events. Explicit transitions only set flags: the status is
// derived at render time (maintenanceStatus), because it also follows the clock.
import type { ProjectedEventOf } from '../../src/events/storedEvent.ts';
import type { MaintenanceDoc } from '../types.ts';

type MaintenanceEvent = ProjectedEventOf<
  | 'maintenance.scheduled'
  | 'maintenance.updated'
  | 'maintenance.started'
  | 'maintenance.completed'
  | 'maintenance.cancelled'
>;

export const evolveMaintenance = (
  doc: MaintenanceDoc | null,
  event: MaintenanceEvent,
): MaintenanceDoc | null => {
  if (event.type === 'maintenance.scheduled') {
    const { maintenance_id, title, description, scheduled_start, scheduled_end, components } = event.data;
    return {
      id: maintenance_id,
      title,
      description,
      scheduledStart: Date.parse(scheduled_start),
      scheduledEnd: Date.parse(scheduled_end),
      components,
      createdAt: event.at,
      updatedAt: event.at,
      started: false,
      completed: false,
      cancelled: false,
    };
  }
  if (doc === null) return null;
  return {
    ...changed(doc, event),
    updatedAt: Math.max(doc.updatedAt ?? doc.createdAt, event.at),
  };
};

/** The first time of a transition: the earliest `at` of its events, whatever their order. */
const earliest = (known: number | undefined, at: number): number =>
  Math.min(known ?? Number.POSITIVE_INFINITY, at);

const changed = (
  doc: MaintenanceDoc,
  event: Exclude<MaintenanceEvent, { type: 'maintenance.scheduled' }>,
) => {
  switch (event.type) {
    case 'maintenance.updated': {
      const { title, description, scheduled_start, scheduled_end, components } = event.data;
      return {
        ...doc,
        title: title ?? doc.title,
        description: description ?? doc.description,
        scheduledStart: scheduled_start === undefined ? doc.scheduledStart : Date.parse(scheduled_start),
        scheduledEnd: scheduled_end === undefined ? doc.scheduledEnd : Date.parse(scheduled_end),
        components: components ?? doc.components,
      };
    }
    case 'maintenance.started':
      return { ...doc, started: true, startedAt: earliest(doc.startedAt, event.at) };
    case 'maintenance.completed':
      return { ...doc, completed: true, completedAt: earliest(doc.completedAt, event.at) };
    case 'maintenance.cancelled':
      return { ...doc, cancelled: true, cancelledAt: earliest(doc.cancelledAt, event.at) };
  }
};
