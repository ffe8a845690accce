// Every JSON body the public API serves, parsed with the schema the OpenAPI document is built
// from (src/contract/responseSchemas.ts). The bodies are bytes joined from stored fragments and
// string templates (embed head and tail, list envelopes, empty daily counts), so only parsing
// the real bytes ties them to the schemas: a missing, mistyped or extra field fails here.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { loadConfig } from '../../src/config.ts';
import { endpoints } from '../../src/http/openapiEndpoints.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';

const ev = (type: string, at: string, data: object) => ({ type, page: 'acme', at, data });

const checks = [
  [1, '2026-11-21T10:00:00Z', 'up', 120],
  [1, '2026-11-22T11:50:00Z', 'down', 900],
  [1, '2026-11-22T11:55:00Z', 'degraded', 400],
  [2, '2026-11-22T11:59:00Z', 'up', 30],
] as const;

/** Requests per documented path: with and without the optional parts of each body. */
const requests: Record<string, readonly string[]> = {
  '/api/status-pages/{slug}/incidents': [
    '/api/status-pages/acme/incidents',
    '/api/status-pages/acme/incidents?page=9',
  ],
  '/api/status-pages/{slug}/incidents/filter': ['/api/status-pages/acme/incidents/filter?month=2026-11'],
  '/api/status-pages/{slug}/incidents/daily-counts': [
    '/api/status-pages/acme/incidents/daily-counts?month=2026-11',
    '/api/status-pages/acme/incidents/daily-counts?month=2020-02', // no stored counts: the template
  ],
  '/api/status-pages/{slug}/maintenances': ['/api/status-pages/acme/maintenances?status=all'],
  '/api/status-pages/{slug}/maintenances/filter': [
    '/api/status-pages/acme/maintenances/filter?month=2026-11',
  ],
  '/api/status-pages/{slug}/maintenances/daily-counts': [
    '/api/status-pages/acme/maintenances/daily-counts?month=2026-11',
    '/api/status-pages/acme/maintenances/daily-counts?month=2020-02',
  ],
  '/api/status/{slug}/charts': ['/api/status/acme/charts'],
  '/api/status-page/{slug}/minute-data': ['/api/status-page/acme/minute-data'],
  '/api/status-pages/{slug}/monitors/{monitorID}/availability': [
    '/api/status-pages/acme/monitors/1/availability?period=7d',
    '/api/status-pages/acme/monitors/2/availability?period=24h',
  ],
  '/api/embed/status': ['/api/embed/status?slug=acme', '/api/embed/status?slug=acme&inc=1&rtm=5&upd=3'],
  '/api/embed/markdown': ['/api/embed/markdown?slug=acme'],
  '/healthz': ['/healthz'],
};

const jsonEndpoints = endpoints.filter((e) => e.contentType === undefined && e.path !== '/openapi.json');

describe('response bodies match their documented schemas', () => {
  let env: ProjectorEnv;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
    await env.append(
      pageConfigured('acme', { title: 'Acme' }, '2026-11-01T00:00:00Z'),
      monitorConfigured('acme', 1, { name: 'Website', position: 1 }, '2026-11-01T00:00:00Z'),
      monitorConfigured('acme', 2, { name: 'DNS', type: 'dns' }, '2026-11-01T00:00:00Z'),
      ...checks.map(([monitor, at, status, ms]) => check('acme', monitor, at, status, ms)),
      ev('incident.opened', '2026-11-20T06:00:00Z', {
        incident_id: 'old',
        title: 'Slow',
        message: 'Slow.',
        components: ['Database'],
      }),
      ev('incident.updated', '2026-11-20T07:00:00Z', {
        incident_id: 'old',
        state: 'resolved',
        message: 'Ok.',
      }),
      ev('incident.opened', '2026-11-22T11:50:00Z', { incident_id: 'now', title: 'Down', message: 'Down.' }),
      ev('maintenance.scheduled', '2026-11-10T00:00:00Z', {
        maintenance_id: 'm1',
        title: 'Upgrade',
        scheduled_start: '2026-11-30T22:00:00Z',
        scheduled_end: '2026-12-01T02:00:00Z',
        components: ['API'],
      }),
    );
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    api = request(appOf(env, config));
  });
  afterAll(() => env.close());

  it('has requests for every documented JSON endpoint', () => {
    expect(jsonEndpoints.map((e) => e.path).filter((path) => requests[path] === undefined)).toEqual([]);
  });

  // Parsing strips unknown keys: comparing the parsed body with the sent one catches extra fields.
  const expectExactly = (schema: ZodTypeAny, body: unknown) => {
    const parsed = schema.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toEqual(body);
  };

  for (const endpoint of jsonEndpoints)
    for (const url of requests[endpoint.path] ?? [])
      it(`GET ${url}`, async () => {
        const res = await api.get(url);
        expect(res.status).toBe(200);
        expectExactly(endpoint.body, JSON.parse(res.text));
      });
});
