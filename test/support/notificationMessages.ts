// Notification messages as the planner writes them, for the channel renderers' and senders' tests.
import type { Incident, Maintenance } from '../../src/contract/responseSchemas.ts';
import type { NotificationMessage } from '../../projections/notify/message.ts';

export const page = { slug: 'acme', title: 'Acme Status', url: 'https://status.example.com/s/acme' } as const;

export const anIncident = (overrides: Partial<Incident> = {}): Incident => ({
  id: 'inc-1',
  title: 'API errors',
  state: 'identified',
  started_at: '2026-11-29T09:00:00Z',
  components: ['API'],
  updates: [
    { status: 'investigating', message: 'We are looking into errors.', created_at: '2026-11-29T09:00:00Z' },
    { status: 'identified', message: 'A bad deploy; rolling back.', created_at: '2026-11-29T09:10:00Z' },
  ],
  ...overrides,
});

export const aMaintenance = (overrides: Partial<Maintenance> = {}): Maintenance => ({
  id: 'mnt-1',
  title: 'Database upgrade',
  description: 'PostgreSQL 17.',
  status: 'scheduled',
  scheduled_start: '2026-12-01T02:00:00Z',
  scheduled_end: '2026-12-01T03:00:00Z',
  components: [],
  created_at: '2026-11-29T08:00:00Z',
  ...overrides,
});

export const incidentMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'msg_incident_1',
  type: 'incident.updated',
  timestamp: '2026-11-29T09:10:00Z',
  page,
  incident: anIncident(),
  ...overrides,
});

export const maintenanceMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'msg_maintenance_1',
  type: 'maintenance.scheduled',
  timestamp: '2026-11-29T08:00:00Z',
  page,
  maintenance: aMaintenance(),
  ...overrides,
});

export const monitorMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: 'msg_monitor_1',
  type: 'monitor.state',
  timestamp: '2026-11-29T09:05:00Z',
  page,
  monitor: { id: '42', name: 'API', state: 'down', since: '2026-11-29T09:04:00Z' },
  ...overrides,
});
