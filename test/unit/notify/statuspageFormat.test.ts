import { describe, expect, it } from 'vitest';
import {
  renderStatuspageWebhook,
  STATUSPAGE_DOCUMENTATION,
} from '../../../projections/notify/formats/statuspage.ts';
import {
  aMaintenance,
  incidentMessage,
  maintenanceMessage,
  monitorMessage,
} from '../../support/notificationMessages.ts';

const update = (n: number, status: string, body: string, at: string, id = 'inc-1') => ({
  id: `${id}-u${n}`,
  status,
  body,
  incident_id: id,
  created_at: at,
  updated_at: at,
  display_at: at,
  affected_components: null,
  deliver_notifications: true,
  custom_tweet: null,
  tweet_id: null,
});

describe('statuspage webhook body', () => {
  it('is meta, page and the incident with its updates newest first, as API v2 shows it', () => {
    expect(renderStatuspageWebhook(incidentMessage())).toEqual({
      meta: { unsubscribe: null, documentation: STATUSPAGE_DOCUMENTATION },
      page: { id: 'acme', status_indicator: 'major', status_description: 'Partial System Outage' },
      incident: {
        id: 'inc-1',
        name: 'API errors',
        status: 'identified',
        created_at: '2026-11-29T09:00:00Z',
        updated_at: '2026-11-29T09:10:00Z',
        monitoring_at: null,
        resolved_at: null,
        impact: 'none',
        shortlink: 'https://status.example.com/s/acme#incident-inc-1',
        started_at: '2026-11-29T09:00:00Z',
        page_id: 'acme',
        incident_updates: [
          update(2, 'identified', 'A bad deploy; rolling back.', '2026-11-29T09:10:00Z'),
          update(1, 'investigating', 'We are looking into errors.', '2026-11-29T09:00:00Z'),
        ],
        components: [],
      },
    });
  });

  it('shows a resolved incident on an operational page with its resolved_at', () => {
    const message = incidentMessage();
    const incident = message.incident;
    if (!incident) throw new Error('fixture');
    const body = renderStatuspageWebhook({
      ...message,
      incident: {
        ...incident,
        state: 'resolved',
        resolved_at: '2026-11-29T09:30:00Z',
        updates: [
          ...incident.updates,
          { status: 'resolved', message: 'Fixed.', created_at: '2026-11-29T09:30:00Z' },
        ],
      },
    });
    expect(body.page).toEqual({
      id: 'acme',
      status_indicator: 'none',
      status_description: 'All Systems Operational',
    });
    expect(body).toMatchObject({ incident: { status: 'resolved', resolved_at: '2026-11-29T09:30:00Z' } });
  });

  it('shows a maintenance as an incident of impact maintenance with its window', () => {
    const body = renderStatuspageWebhook(
      maintenanceMessage({
        type: 'maintenance.started',
        timestamp: '2026-12-01T02:00:00Z',
        maintenance: aMaintenance({ status: 'in_progress' }),
      }),
    );
    expect(body.page).toEqual({
      id: 'acme',
      status_indicator: 'maintenance',
      status_description: 'Service Under Maintenance',
    });
    expect(body).toMatchObject({
      incident: {
        id: 'mnt-1',
        status: 'in_progress',
        impact: 'maintenance',
        scheduled_for: '2026-12-01T02:00:00Z',
        scheduled_until: '2026-12-01T03:00:00Z',
        incident_updates: [
          update(2, 'in_progress', 'This maintenance is in progress.', '2026-12-01T02:00:00Z', 'mnt-1'),
          update(1, 'scheduled', 'PostgreSQL 17.', '2026-11-29T08:00:00Z', 'mnt-1'),
        ],
      },
    });
  });

  it('shows a monitor state as component_update and component', () => {
    expect(renderStatuspageWebhook(monitorMessage())).toEqual({
      meta: { unsubscribe: null, documentation: STATUSPAGE_DOCUMENTATION },
      page: { id: 'acme', status_indicator: 'major', status_description: 'Partial System Outage' },
      component_update: {
        id: 'msg_monitor_1',
        component_id: '42',
        created_at: '2026-11-29T09:04:00Z',
        old_status: null,
        new_status: 'partial_outage',
      },
      component: { id: '42', name: 'API', status: 'partial_outage', created_at: '2026-11-29T09:04:00Z' },
    });
  });
});
