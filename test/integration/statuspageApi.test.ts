// The Statuspage-compatible documents end to end: events through the write path, the real
// projector, the API; every value below follows from test/support/subscriptionFixture.ts by the
// mapping of docs/api.md. The documents are checked against a JSON Schema written from
// Statuspage's published examples, and read by a real Statuspage v2 client (statuspage.io).
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { Statuspage } from 'statuspage.io';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';
import { statuspageSchemas } from '../support/statuspageSchema.ts';
import { HOSTILE_TITLE, N, PAGE_TITLE, subscriptionEvents } from '../support/subscriptionFixture.ts';

const PAGE_URL = 'http://status.test/s/acme';
const UPDATED = '2026-11-22T11:59:00Z'; // DNS's check, the page's latest event

const page = { id: 'acme', name: PAGE_TITLE, url: PAGE_URL, time_zone: 'Etc/UTC', updated_at: UPDATED };
const component = (id: string, name: string, status: string, createdAt: string, position: number) => ({
  id,
  name,
  status,
  created_at: createdAt, // the monitor's first check
  updated_at: UPDATED,
  position,
  description: null,
  showcase: true,
  start_date: null,
  group_id: null,
  page_id: 'acme',
  group: false,
  only_show_if_degraded: false,
});
// API down with impact partial; Website up inside the in-progress m-now; DNS degraded.
const api = component('12', 'API', 'partial_outage', '2026-11-22T11:50:00Z', 1);
const website = component('11', 'Website', 'under_maintenance', '2026-11-22T11:00:00Z', 2);
const dns = component('13', 'DNS', 'degraded_performance', '2026-11-22T11:59:00Z', 3);

const update = (item: string, n: number, status: string, body: string, at: string) => ({
  id: `${item}-u${n}`,
  status,
  body,
  incident_id: item,
  created_at: at,
  updated_at: at,
  display_at: at,
  affected_components: null,
  deliver_notifications: true,
  custom_tweet: null,
  tweet_id: null,
});

const inc1 = {
  id: 'inc-1',
  name: HOSTILE_TITLE,
  status: 'identified',
  created_at: '2026-11-22T11:50:00Z',
  updated_at: '2026-11-22T11:55:00Z',
  monitoring_at: null,
  resolved_at: null,
  impact: 'major', // names API, impact partial
  shortlink: `${PAGE_URL}#incident-inc-1`,
  started_at: '2026-11-22T11:50:00Z',
  page_id: 'acme',
  incident_updates: [
    update('inc-1', 2, 'identified', 'Found it.', '2026-11-22T11:55:00Z'),
    update('inc-1', 1, 'investigating', 'Errors on <b>API</b> & "retries"', '2026-11-22T11:50:00Z'),
  ],
  components: [api],
};
const inc0 = {
  id: 'inc-0',
  name: 'Database latency',
  status: 'resolved',
  created_at: '2026-11-20T06:00:00Z',
  updated_at: '2026-11-20T06:40:00Z',
  monitoring_at: '2026-11-20T06:20:00Z',
  resolved_at: '2026-11-20T06:40:00Z',
  impact: 'none', // "Database" names no monitor
  shortlink: `${PAGE_URL}#incident-inc-0`,
  started_at: '2026-11-20T06:00:00Z',
  page_id: 'acme',
  incident_updates: [
    update('inc-0', 3, 'resolved', 'Resolved.', '2026-11-20T06:40:00Z'),
    update('inc-0', 2, 'monitoring', 'Back to normal.', '2026-11-20T06:20:00Z'),
    update('inc-0', 1, 'investigating', 'Queries are slow.', '2026-11-20T06:00:00Z'),
  ],
  components: [],
};

const maintenance = (
  id: string,
  name: string,
  status: string,
  times: { created: string; updated: string; start: string; end: string },
  updates: object[],
  components: object[] = [],
) => ({
  id,
  name,
  status,
  created_at: times.created,
  updated_at: times.updated,
  monitoring_at: null,
  resolved_at: status === 'completed' ? times.updated : null,
  impact: 'maintenance',
  shortlink: `${PAGE_URL}#maintenance-${id}`,
  started_at: times.created,
  page_id: 'acme',
  incident_updates: updates,
  components,
  scheduled_for: times.start,
  scheduled_until: times.end,
});

const mNext = maintenance(
  'm-next',
  'Storage migration',
  'scheduled',
  {
    created: '2026-11-21T09:00:00Z',
    updated: '2026-11-21T09:00:00Z',
    start: '2026-11-30T22:00:00Z',
    end: '2026-12-01T02:00:00Z',
  },
  [update('m-next', 1, 'scheduled', 'Moving volumes.', '2026-11-21T09:00:00Z')],
);
const mCancel = maintenance(
  'm-cancel',
  'CDN switch',
  'completed', // cancelled: Statuspage has no such status
  {
    created: '2026-11-19T00:00:00Z',
    updated: '2026-11-19T12:00:00Z', // the cancellation
    start: '2026-11-25T01:00:00Z',
    end: '2026-11-25T03:00:00Z',
  },
  [
    update('m-cancel', 2, 'completed', 'This maintenance was cancelled.', '2026-11-19T12:00:00Z'),
    update('m-cancel', 1, 'scheduled', 'CDN switch', '2026-11-19T00:00:00Z'), // no description: the title
  ],
);
const mNow = maintenance(
  'm-now',
  'Network maintenance',
  'in_progress', // by the clock: 11:30 ≤ N < 12:15
  {
    created: '2026-11-20T00:00:00Z',
    updated: '2026-11-22T11:30:00Z', // when the clock started it
    start: '2026-11-22T11:30:00Z',
    end: '2026-11-22T12:15:00Z',
  },
  [
    update('m-now', 2, 'in_progress', 'This maintenance is in progress.', '2026-11-22T11:30:00Z'),
    update('m-now', 1, 'scheduled', 'Switching the core routers.', '2026-11-20T00:00:00Z'),
  ],
  [website],
);
const mDone = maintenance(
  'm-done',
  'Database upgrade',
  'completed',
  {
    created: '2026-11-15T00:00:00Z',
    updated: '2026-11-18T03:30:00Z', // maintenance.completed
    start: '2026-11-18T02:00:00Z',
    end: '2026-11-18T04:00:00Z',
  },
  [
    update('m-done', 2, 'completed', 'This maintenance is complete.', '2026-11-18T03:30:00Z'),
    update('m-done', 1, 'scheduled', 'Upgrading the primary database.', '2026-11-15T00:00:00Z'),
  ],
);

// API down (partial) → partial_outage overall; DNS (impact none) does not count.
const status = { indicator: 'major', description: 'Partial System Outage' };
const expected = {
  summary: {
    page,
    components: [api, website, dns],
    incidents: [inc1],
    scheduled_maintenances: [mNext, mNow], // scheduled or in progress, scheduled_for descending
    status,
  },
  status: { page, status },
  components: { page, components: [api, website, dns] },
  incidents: { page, incidents: [inc1, inc0] },
  'incidents/unresolved': { page, incidents: [inc1] },
  'scheduled-maintenances': { page, scheduled_maintenances: [mNext, mCancel, mNow, mDone] },
  'scheduled-maintenances/upcoming': { page, scheduled_maintenances: [mNext] },
  'scheduled-maintenances/active': { page, scheduled_maintenances: [mNow] },
};

describe('Statuspage-compatible documents', () => {
  let env: ProjectorEnv;
  let app: ReturnType<typeof buildApp>;
  const ajv = new Ajv({ allErrors: true });

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    const { accepted } = await env.append(
      ...subscriptionEvents(),
      pageConfigured('locked', { auth_token: 'a-private-token-1234' }),
      pageConfigured('gone', { blocked: true }),
    );
    await projectAll(env, accepted);
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    app = appOf(env, config);
  });
  afterAll(() => env.close());

  for (const [name, body] of Object.entries(expected))
    it(`serves ${name}.json exactly, valid against the Statuspage schema`, async () => {
      const res = await request(app).get(`/s/acme/api/v2/${name}.json`);
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        200,
        'application/json; charset=utf-8',
        'public, max-age=30, stale-if-error=86400',
      ]);
      expect(res.body).toEqual(body);
      const validate = ajv.compile(statuspageSchemas[name as keyof typeof statuspageSchemas]);
      expect(validate(res.body) ? [] : validate.errors).toEqual([]);
      const again = await request(app)
        .get(`/s/acme/api/v2/${name}.json`)
        .set('If-None-Match', String(res.headers['etag']));
      expect([again.status, again.headers['etag']]).toEqual([304, res.headers['etag']]);
    });

  it('is read by the statuspage.io client pointed at the page URL', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const client = new Statuspage('acme');
      client.setApiUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/s/acme`);
      expect(await client.api.getSummary()).toEqual(expected.summary);
      expect(await client.api.getStatus()).toEqual(expected.status);
      expect(await client.api.getComponents()).toEqual(expected.components);
      expect(await client.api.incidents.getAll()).toEqual(expected.incidents);
      expect(await client.api.incidents.getUnresolved()).toEqual(expected['incidents/unresolved']);
      // Its getAll and getActive request upcoming.json too (statuspage.io 3.3.8): only getUpcoming
      // names its own path.
      expect(await client.api.scheduledMaintenances.getUpcoming()).toEqual(
        expected['scheduled-maintenances/upcoming'],
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('follows the access rules of the page endpoints', async () => {
    const get = (path: string) => request(app).get(path);
    const locked = await get('/s/locked/api/v2/status.json');
    expect([locked.status, locked.body, locked.headers['cache-control']]).toEqual([
      401,
      { error: 'auth required' },
      'no-store',
    ]);
    const wrong = await get('/s/locked/api/v2/status.json?auth_token=not-the-token-at-all');
    expect([wrong.status, wrong.body]).toEqual([401, { error: 'auth required' }]);
    const open = await get('/s/locked/api/v2/status.json?auth_token=a-private-token-1234');
    expect([open.status, open.headers['cache-control'], open.body.status]).toEqual([
      200,
      'private, no-store',
      { indicator: 'none', description: 'All Systems Operational' }, // no monitors
    ]);
    for (const path of [
      '/s/gone/api/v2/summary.json',
      '/s/nobody/api/v2/summary.json',
      '/s/acme/api/v2/pages.json',
    ])
      expect([(await get(path)).status, (await get(path)).body]).toEqual([404, { error: 'not found' }]);
  });
});
