// POST /v1/integrations/alertmanager/{slug}: auth by INGEST_TOKEN or the page's integration
// token, validation, mapping by label, alert state as checks, repeats as duplicates; then the
// page's availability shows each alert's interval to the second, and a rebuild gives the same.
import type { Server } from 'node:http';
import request from 'supertest';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { rebuild } from '../../src/projector/rebuild.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { amPayload, integrationsApp } from '../support/integrationsFixture.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { INGEST_TOKEN, getOk, listenApi } from '../support/testServers.ts';

const NOW = '2026-11-22T12:00:00Z';
let env: ProjectorEnv;
let app: ReturnType<typeof integrationsApp>;
let api: Server;
const registry = new Registry();

const post = (slug: string, body: unknown, token = INGEST_TOKEN, query = '') =>
  request(app)
    .post(`/v1/integrations/alertmanager/${slug}${query}`)
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);

const logCount = async () =>
  env.t.db.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM event_log`);

const availability = async (monitor: number) =>
  (
    (await getOk(api, `/api/status-pages/acme/monitors/${monitor}/availability?period=24h`)) as {
      availability: { downtime_seconds: number; incident_count: number };
      daily_breakdown: unknown[];
    }
  ).availability;

beforeAll(async () => {
  env = await startProjectorEnv({ now: NOW });
  await env.append(
    pageConfigured('acme'),
    monitorConfigured('acme', 1, { name: 'API' }),
    monitorConfigured('acme', 2, { name: 'Website' }),
    monitorConfigured('acme', 4, { name: 'Jobs' }),
    pageConfigured('beta'),
    monitorConfigured('beta', 3, { name: 'API' }),
  );
  app = integrationsApp(env, registry);
  api = listenApi(env);
});
afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
  await env.close();
});

describe('the Alertmanager endpoint', () => {
  it('refuses a missing or wrong token, another page’s token, and an unknown page', async () => {
    const beta = await request(app)
      .post('/v1/pages/beta/integration-tokens')
      .set('Authorization', `Bearer ${INGEST_TOKEN}`);
    expect(beta.status).toBe(201);
    const body = amPayload([]);
    expect((await request(app).post('/v1/integrations/alertmanager/acme').send(body)).status).toBe(401);
    const wrong = await post('acme', body, 'not-the-token-0123456789');
    expect([wrong.status, wrong.body]).toEqual([401, { error: 'unauthorized' }]);
    const otherPage = await post('acme', body, (beta.body as { token: string }).token);
    expect([otherPage.status, otherPage.body]).toEqual([401, { error: 'unauthorized' }]);
    const unknown = await post('nope', body);
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'status page not found' }]);
  });

  it('refuses a token of a page deleted since, even when the slug is configured again', async () => {
    await env.append(pageConfigured('temp'));
    const made = await request(app)
      .post('/v1/pages/temp/integration-tokens')
      .set('Authorization', `Bearer ${INGEST_TOKEN}`);
    const token = (made.body as { token: string }).token;
    expect((await post('temp', amPayload([]), token)).status).toBe(200);
    await env.append({ type: 'page.deleted', page: 'temp', at: '2026-11-22T11:00:00Z', data: {} });
    await env.append(pageConfigured('temp', {}, '2026-11-22T11:01:00Z'));
    const after = await post('temp', amPayload([]), token);
    expect([after.status, after.body]).toEqual([401, { error: 'unauthorized' }]);
  });

  it('refuses a malformed payload, naming what is wrong, and appends nothing', async () => {
    const before = await logCount();
    const bad = { ...amPayload([{ fingerprint: 'f1', labels: {}, startsAt: 'yesterday' }]), version: '3' };
    const res = await post('acme', bad);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid payload',
      details: [
        { path: 'version', message: 'Invalid literal value, expected "4"' },
        { path: 'alerts.0.startsAt', message: 'Invalid datetime' },
        { path: 'alerts.0.startsAt', message: 'not a real instant' },
      ],
    });
    const notJson = await request(app)
      .post('/v1/integrations/alertmanager/acme')
      .set('Authorization', `Bearer ${INGEST_TOKEN}`)
      .set('Content-Type', 'application/json')
      .send('{"version":');
    expect([notJson.status, notJson.body]).toEqual([400, { error: 'malformed body' }]);
    // A check the log refuses (more than 5 minutes ahead) refuses the whole notification.
    const ahead = amPayload([
      { fingerprint: 'ok', labels: { statuspage_monitor: '1' }, startsAt: '2026-11-22T11:00:00Z' },
      { fingerprint: 'ahead', labels: { statuspage_monitor: '1' }, startsAt: '2026-11-22T12:06:00Z' },
    ]);
    const refused = await post('acme', ahead);
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        error: 'invalid payload',
        details: [{ path: 'alerts.1.startsAt', message: 'at: more than 5 minutes in the future' }],
      },
    ]);
    const badQuery = await post('acme', amPayload([]), INGEST_TOKEN, '?monitor_label=not-a-label');
    expect([badQuery.status, badQuery.body]).toEqual([400, { error: 'invalid parameters' }]);
    expect(await logCount()).toBe(before);
  });

  it('maps alerts by label, counts the unmapped, and makes repeats duplicates', async () => {
    const alerts = [
      // API by id, down from 10:00:07.
      {
        fingerprint: 'api1',
        labels: { alertname: 'ApiDown', statuspage_monitor: '1' },
        startsAt: '2026-11-22T10:00:07Z',
      },
      // Website by name, severity warning: degraded (not down) with ?degraded=warning.
      {
        fingerprint: 'web1',
        labels: { alertname: 'WebSlow', statuspage_component: 'Website', severity: 'warning' },
        startsAt: '2026-11-22T10:10:00Z',
      },
      // beta's monitor 3, and a label naming no monitor: unmapped.
      {
        fingerprint: 'beta3',
        labels: { alertname: 'BetaDown', statuspage_monitor: '3' },
        startsAt: '2026-11-22T10:00:00Z',
      },
      { fingerprint: 'none', labels: { alertname: 'Nothing' }, startsAt: '2026-11-22T10:00:00Z' },
    ];
    const first = await post('acme', amPayload(alerts), INGEST_TOKEN, '?degraded=warning,info');
    expect([first.status, first.body]).toEqual([
      200,
      {
        accepted: 2,
        duplicates: 0,
        unmapped: [
          { fingerprint: 'beta3', alertname: 'BetaDown' },
          { fingerprint: 'none', alertname: 'Nothing' },
        ],
      },
    ]);
    // Alertmanager's repeat_interval and retries send the same again.
    const repeat = await post('acme', amPayload(alerts), INGEST_TOKEN, '?degraded=warning,info');
    expect(repeat.body).toMatchObject({ accepted: 0, duplicates: 2 });
    // API resolves at 10:30:52 (the repeat of its firing is a duplicate).
    const resolved = await post('acme', amPayload([{ ...alerts[0]!, endsAt: '2026-11-22T10:30:52Z' }]));
    expect(resolved.body).toEqual({ accepted: 1, duplicates: 1, unmapped: [] });

    await env.project();
    expect(await availability(1)).toMatchObject({ downtime_seconds: 1845, incident_count: 1 }); // 10:00:07–10:30:52
    expect(await availability(2)).toMatchObject({ downtime_seconds: 0, incident_count: 0 }); // degraded is up
    const charts = (await getOk(api, '/api/status/acme/charts')) as {
      monitors: { id: number; state: string }[];
    };
    expect(charts.monitors.map((m) => [m.id, m.state])).toEqual([
      [1, 'up'],
      [2, 'degraded'],
      [4, 'up'],
    ]);
  });

  it('keeps a monitor down until every alert mapped to it has resolved, across groups', async () => {
    const a = {
      fingerprint: 'jobs-a',
      labels: { statuspage_monitor: '4' },
      startsAt: '2026-11-22T11:00:00Z',
    };
    const b = {
      fingerprint: 'jobs-b',
      labels: { statuspage_component: 'Jobs' },
      startsAt: '2026-11-22T11:10:00Z',
    };
    expect((await post('acme', amPayload([a], 'group-a'))).body).toMatchObject({ accepted: 1 });
    expect((await post('acme', amPayload([b], 'group-b'))).body).toMatchObject({ accepted: 1 });
    // a resolves first: Jobs stays down (b fires); b's resolution makes it up.
    await post('acme', amPayload([{ ...a, endsAt: '2026-11-22T11:20:00Z' }], 'group-a'));
    await post('acme', amPayload([{ ...b, endsAt: '2026-11-22T11:40:30Z' }], 'group-b'));
    await env.project();
    expect(await availability(4)).toMatchObject({ downtime_seconds: 2430, incident_count: 1 }); // 11:00–11:40:30
  });

  it('counts notifications and the alerts their senders left out', async () => {
    const truncated = { ...amPayload([]), truncatedAlerts: 3 };
    expect((await post('acme', truncated)).body).toEqual({ accepted: 0, duplicates: 0, unmapped: [] });
    const text = await registry.metrics();
    expect(text).toContain('integration_alerts_truncated_total{source="alertmanager"} 3');
    // Accepted: 1 of the deleted-page test, 3 of the mapping test, 4 of the two-groups test and
    // this one; refused: 3.
    expect(text).toContain('integration_notifications_total{source="alertmanager",result="accepted"} 9');
    expect(text).toContain('integration_notifications_total{source="alertmanager",result="refused"} 3');
  });

  it('gives the same answers after a clean rebuild', async () => {
    const paths = [1, 2, 4].map((m) => `/api/status-pages/acme/monitors/${m}/availability?period=24h`);
    paths.push('/api/status/acme/charts', '/api/status-pages/acme/sla?period=2026-11');
    // The month's SLA report counts each alert's interval too.
    const sla = (await getOk(api, '/api/status-pages/acme/sla?period=2026-11')) as {
      monitors: { monitor_id: number; downtime_seconds: number; incident_count: number }[];
    };
    expect(sla.monitors.map((m) => [m.monitor_id, m.downtime_seconds, m.incident_count])).toEqual([
      [1, 1845, 1],
      [2, 0, 0],
      [4, 2430, 1],
    ]);
    const live = await Promise.all(paths.map((p) => request(api).get(p)));
    await rebuild(env.deps, { prefix: env.prefix, partitions: env.partitions, graceMs: 0 });
    await new Promise((resolve) => api.close(resolve));
    api = listenApi(env);
    const rebuilt = await Promise.all(paths.map((p) => request(api).get(p)));
    expect(rebuilt.map((r) => r.text)).toEqual(live.map((r) => r.text));
  });
});
