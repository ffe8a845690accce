// The `statuspage` webhook body: Atlassian Statuspage's webhook shape (meta, page, and an incident
// with its incident_updates, or a component_update with its component), built from the same
// incident and maintenance objects as this service's Statuspage-compatible API v2 documents.
import type { Incident, Maintenance } from '../../../src/contract/responseSchemas.ts';
import type { OverallStatus } from '../../types.ts';
import type { ComponentStatus } from '../../statuspage/components.ts';
import { spIncident, spMaintenance, type ItemContext } from '../../statuspage/incidents.ts';
import { statusOf } from '../../statuspage/indicator.ts';
import type { MonitorState, NotificationMessage } from '../message.ts';

export const STATUSPAGE_DOCUMENTATION =
  'https://support.atlassian.com/statuspage/docs/enable-webhook-notifications/';

const toIncidentDoc = (incident: Incident) => ({
  id: incident.id,
  title: incident.title,
  state: incident.state,
  startedAt: Date.parse(incident.started_at),
  resolvedAt: incident.resolved_at === undefined ? null : Date.parse(incident.resolved_at),
  components: incident.components,
  updates: incident.updates.map((u) => ({
    status: u.status,
    message: u.message,
    createdAt: Date.parse(u.created_at),
  })),
});

// The read API's status already applied the clock: the flags make spMaintenance show that status.
const toMaintenanceDoc = (maintenance: Maintenance, atMs: number) => ({
  id: maintenance.id,
  title: maintenance.title,
  description: maintenance.description,
  scheduledStart: Date.parse(maintenance.scheduled_start),
  scheduledEnd: Date.parse(maintenance.scheduled_end),
  components: maintenance.components,
  createdAt: Date.parse(maintenance.created_at),
  updatedAt: atMs,
  started: maintenance.status === 'in_progress',
  completed: maintenance.status === 'completed',
  cancelled: maintenance.status === 'cancelled',
});

// A down monitor as components.ts shows one whose impact is not known: a partial outage.
const monitorStatuses = {
  up: 'operational',
  degraded: 'degraded_performance',
  down: 'partial_outage',
} as const satisfies Record<MonitorState['state'], ComponentStatus>;
const monitorComponentStatus = (monitor: MonitorState): ComponentStatus => monitorStatuses[monitor.state];

/** The page status the message implies: a message does not carry the page's overall status. */
const impliedOverall = (message: NotificationMessage): OverallStatus => {
  if (message.monitor) return monitorComponentStatus(message.monitor);
  if (message.incident) return message.incident.state === 'resolved' ? 'operational' : 'partial_outage';
  return message.maintenance?.status === 'in_progress' ? 'under_maintenance' : 'operational';
};

const componentUpdate = (monitor: MonitorState, message: NotificationMessage) => {
  const status = monitorComponentStatus(monitor);
  return {
    component_update: {
      id: message.id,
      component_id: monitor.id,
      created_at: monitor.since,
      // The message reports the settled state only: the one before it is not known here.
      old_status: null,
      new_status: status,
    },
    component: { id: monitor.id, name: monitor.name, status, created_at: monitor.since },
  };
};

export const renderStatuspageWebhook = (message: NotificationMessage) => {
  const status = statusOf(impliedOverall(message));
  const ctx: ItemContext = {
    slug: message.page.slug,
    pageUrl: message.page.url,
    monitors: [],
    components: [],
  };
  const atMs = Date.parse(message.timestamp);
  const subject = message.incident
    ? { incident: spIncident(toIncidentDoc(message.incident), ctx) }
    : message.maintenance
      ? { incident: spMaintenance(toMaintenanceDoc(message.maintenance, atMs), ctx, atMs) }
      : message.monitor
        ? componentUpdate(message.monitor, message)
        : null;
  if (subject === null) throw new Error(`notification ${message.id} carries nothing to report`);
  return {
    // Operator-managed: the page's operator removes the subscription, there is no link to do it.
    meta: { unsubscribe: null, documentation: STATUSPAGE_DOCUMENTATION },
    page: {
      id: message.page.slug,
      status_indicator: status.indicator,
      status_description: status.description,
    },
    ...subject,
  };
};
