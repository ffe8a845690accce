// What a chat message says, whatever the chat: a headline, the text, a few facts and a link. Slack,
// Teams and Discord differ only in how they lay this out and what they must escape.
import type { Incident, Maintenance } from '../../../src/contract/responseSchemas.ts';
import { itemUrl } from '../../statuspage/incidents.ts';
import type { MonitorState, NotificationMessage } from '../message.ts';

export type Tone = 'bad' | 'warning' | 'good' | 'info';
export type Fact = Readonly<{ name: string; value: string }>;
export type Summary = Readonly<{
  headline: string;
  text: string;
  facts: readonly Fact[];
  url: string;
  tone: Tone;
}>;

const incidentStates = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
} as const;

const maintenanceHeadlines = {
  'maintenance.scheduled': 'Maintenance scheduled',
  'maintenance.reminder': 'Maintenance starts soon',
  'maintenance.started': 'Maintenance in progress',
  'maintenance.completed': 'Maintenance completed',
  'maintenance.cancelled': 'Maintenance cancelled',
  'maintenance.rescheduled': 'Maintenance rescheduled',
} as const;

const componentsFact = (names: readonly string[]): Fact[] =>
  names.length === 0 ? [] : [{ name: 'Components', value: names.join(', ') }];

const ofIncident = (incident: Incident, message: NotificationMessage): Summary => {
  // Coalesced updates arrive as one message: show each of them, oldest first.
  const shown = incident.updates.slice(-Math.max(1, message.coalesced ?? 1));
  const text = shown
    .map((u) => (shown.length > 1 ? `${incidentStates[u.status]}: ${u.message}` : u.message))
    .join('\n\n');
  return {
    headline: `${incidentStates[incident.state]}: ${incident.title}`,
    text,
    facts: componentsFact(incident.components),
    url: itemUrl(message.page.url, 'incident', incident.id),
    tone: incident.state === 'resolved' ? 'good' : 'bad',
  };
};

const ofMaintenance = (
  maintenance: Maintenance,
  message: NotificationMessage,
  type: keyof typeof maintenanceHeadlines,
): Summary => ({
  headline: `${maintenanceHeadlines[type]}: ${maintenance.title}`,
  text: maintenance.description,
  facts: [
    { name: 'Window', value: `${maintenance.scheduled_start} – ${maintenance.scheduled_end}` },
    ...componentsFact(maintenance.components),
  ],
  url: itemUrl(message.page.url, 'maintenance', maintenance.id),
  tone: type === 'maintenance.completed' ? 'good' : 'info',
});

const monitorTones = { up: 'good', degraded: 'warning', down: 'bad' } as const;

const ofMonitor = (monitor: MonitorState, message: NotificationMessage): Summary => ({
  headline: `${monitor.name} is ${monitor.state}`,
  text: `${monitor.name} has been ${monitor.state} since ${monitor.since}.`,
  facts: [],
  url: message.page.url,
  tone: monitorTones[monitor.state],
});

/** @throws Error when the message lacks the object its type reports (a planner bug, not input). */
export const summarize = (message: NotificationMessage): Summary => {
  const { type } = message;
  if (type === 'incident.opened' || type === 'incident.updated') {
    if (message.incident) return ofIncident(message.incident, message);
  } else if (type === 'monitor.state') {
    if (message.monitor) return ofMonitor(message.monitor, message);
  } else if (message.maintenance) return ofMaintenance(message.maintenance, message, type);
  throw new Error(`notification ${message.id} of type ${type} carries no object of that type`);
};
