// One page for the feed and Statuspage-compatible tests, through the write path. Hostile text on
// purpose: markup, quotes, `]]>`, an ampersand and control characters XML cannot carry.
//
// now N = 2026-11-22T12:00:30Z. Monitors (display order): 12 API (partial, position 1) down since
// 11:50; 11 Website (major, position 2) up, named by the in-progress maintenance m-now; 13 DNS
// (dns, impact none) degraded at 11:59 — the page's latest event.
import { check, monitorConfigured, pageConfigured } from './events.ts';

export const N = '2026-11-22T12:00:30Z';
export const HOSTILE_TITLE = '<script>alert("x")</script> & ]]> \u0001bell\u0008';
/** The hostile title as XML can carry it: the two control characters dropped. */
export const HOSTILE_TITLE_IN_XML = '<script>alert("x")</script> & ]]> bell';
export const PAGE_TITLE = 'Acme "Status" & <Co>';

const ev = (type: string, at: string, data: object) => ({ type, page: 'acme', at, data });

/** `idOffset` shifts the monitor ids: they are unique across pages. */
export const subscriptionEvents = (page = 'acme', extra: Record<string, unknown> = {}, idOffset = 0) => [
  pageConfigured(page, { title: PAGE_TITLE, ...extra }, '2026-10-01T00:00:00Z'),
  monitorConfigured(
    page,
    11 + idOffset,
    { name: 'Website', impact: 'major', position: 2 },
    '2026-10-01T00:00:00Z',
  ),
  monitorConfigured(
    page,
    12 + idOffset,
    { name: 'API', impact: 'partial', position: 1 },
    '2026-10-01T00:00:00Z',
  ),
  monitorConfigured(
    page,
    13 + idOffset,
    { name: 'DNS', type: 'dns', impact: 'none' },
    '2026-10-01T00:00:00Z',
  ),
  ...[
    ev('incident.opened', '2026-11-20T06:00:00Z', {
      incident_id: 'inc-0',
      title: 'Database latency',
      message: 'Queries are slow.',
      components: ['Database'],
    }),
    ev('incident.updated', '2026-11-20T06:20:00Z', {
      incident_id: 'inc-0',
      state: 'monitoring',
      message: 'Back to normal.',
    }),
    ev('incident.updated', '2026-11-20T06:40:00Z', {
      incident_id: 'inc-0',
      state: 'resolved',
      message: 'Resolved.',
    }),
    ev('maintenance.scheduled', '2026-11-15T00:00:00Z', {
      maintenance_id: 'm-done',
      title: 'Database upgrade',
      description: 'Upgrading the primary database.',
      scheduled_start: '2026-11-18T02:00:00Z',
      scheduled_end: '2026-11-18T04:00:00Z',
    }),
    ev('maintenance.started', '2026-11-18T02:00:00Z', { maintenance_id: 'm-done' }),
    ev('maintenance.completed', '2026-11-18T03:30:00Z', { maintenance_id: 'm-done' }),
    ev('maintenance.scheduled', '2026-11-19T00:00:00Z', {
      maintenance_id: 'm-cancel',
      title: 'CDN switch',
      scheduled_start: '2026-11-25T01:00:00Z',
      scheduled_end: '2026-11-25T03:00:00Z',
    }),
    ev('maintenance.cancelled', '2026-11-19T12:00:00Z', { maintenance_id: 'm-cancel' }),
    ev('maintenance.scheduled', '2026-11-20T00:00:00Z', {
      maintenance_id: 'm-now',
      title: 'Network maintenance',
      description: 'Switching the core routers.',
      scheduled_start: '2026-11-22T11:30:00Z',
      scheduled_end: '2026-11-22T12:15:00Z',
      components: ['Website'],
    }),
    ev('maintenance.scheduled', '2026-11-21T09:00:00Z', {
      maintenance_id: 'm-next',
      title: 'Storage migration',
      description: 'Moving volumes.',
      scheduled_start: '2026-11-30T22:00:00Z',
      scheduled_end: '2026-12-01T02:00:00Z',
    }),
    ev('incident.opened', '2026-11-22T11:50:00Z', {
      incident_id: 'inc-1',
      title: HOSTILE_TITLE,
      message: 'Errors on <b>API</b> & "retries"',
      components: ['API'],
    }),
    ev('incident.updated', '2026-11-22T11:55:00Z', {
      incident_id: 'inc-1',
      state: 'identified',
      message: 'Found it.',
    }),
  ].map((e) => ({ ...e, page })),
  check(page, 11 + idOffset, '2026-11-22T11:00:00Z', 'up', 100),
  check(page, 12 + idOffset, '2026-11-22T11:50:00Z', 'down', 900),
  check(page, 13 + idOffset, '2026-11-22T11:59:00Z', 'degraded', 40),
];
