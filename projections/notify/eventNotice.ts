// What one log event notifies (notifications.md, "What notifies"), from the page as the notifier
// saw it before and after the event. The read API's own builders make the incident and
// maintenance objects, so a message shows exactly what the API answers.
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { incidentJson } from '../lists/incidentJson.ts';
import { maintenanceJson } from '../lists/maintenanceJson.ts';
import type { MaintenanceDoc, PageState } from '../types.ts';
import { incidentThread, logSource, transitionSource, type Notice } from './notice.ts';

type Pages = Readonly<{ before: PageState | null; after: PageState | null }>;

const maintenanceNotice = (
  source: string,
  type: Notice['type'],
  doc: MaintenanceDoc,
  atMs: number,
): Notice => ({
  source,
  thread: source,
  coalesces: false,
  type,
  atMs,
  components: doc.components,
  maintenance: maintenanceJson(doc, atMs),
});

const movedWindow = (before: MaintenanceDoc, after: MaintenanceDoc): boolean =>
  before.scheduledStart !== after.scheduledStart || before.scheduledEnd !== after.scheduledEnd;

/** The notice of `event`, or null when it notifies nothing. */
export const eventNotice = (event: ProjectedEvent, pages: Pages): Notice | null => {
  const after = pages.after;
  if (after === null || after.deleted) return null;
  const source = logSource(event.position);
  switch (event.type) {
    case 'incident.opened':
    case 'incident.updated': {
      if (event.data.notify === false) return null;
      const doc = after.incidents[event.data.incident_id];
      if (doc === undefined) return null;
      return {
        source,
        thread: incidentThread(event.page, doc.id),
        coalesces: true,
        type: event.type,
        atMs: event.at,
        components: doc.components,
        incident: incidentJson(doc),
      };
    }
    case 'maintenance.scheduled':
    case 'maintenance.updated':
    case 'maintenance.started':
    case 'maintenance.completed':
    case 'maintenance.cancelled': {
      const id = event.data.maintenance_id;
      const doc = after.maintenances[id];
      if (doc === undefined) return null;
      const before = pages.before?.maintenances[id];
      if (event.type === 'maintenance.scheduled')
        return maintenanceNotice(source, 'maintenance.scheduled', doc, event.at);
      if (before === undefined) return null;
      if (event.type === 'maintenance.updated')
        return movedWindow(before, doc)
          ? maintenanceNotice(source, 'maintenance.rescheduled', doc, event.at)
          : null;
      if (event.type === 'maintenance.cancelled')
        return before.cancelled ? null : maintenanceNotice(source, 'maintenance.cancelled', doc, event.at);
      const kind = event.type === 'maintenance.started' ? 'started' : 'completed';
      if (kind === 'started' ? before.started : before.completed) return null;
      return maintenanceNotice(transitionSource(kind, event.page, id), event.type, doc, event.at);
    }
    case 'check.recorded':
    case 'monitor.configured':
    case 'monitor.removed':
    case 'page.configured':
    case 'page.deleted':
      return null; // monitor states notify by the clock, once they have held
  }
};
