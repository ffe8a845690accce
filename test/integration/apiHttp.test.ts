// Cross-cutting HTTP rules: CORS and preflight, ETag and 304, unknown paths, the 503 without read
// models, hostile input never answering 500, request logs without tokens, metrics, OpenAPI.
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createHttpMetrics } from '../../src/http/httpMetrics.ts';
import { activeKey } from '../../projections/store/control/keys.ts';
import { startApiTestApp, TOKEN, type ApiTestApp } from '../support/apiFixture.ts';
import { SEED_PARTITIONS, SEED_VERSION } from '../support/seedReadModels.ts';
import { elevenApiPaths } from '../support/apiPaths.ts';

const registry = new Registry();
let t: ApiTestApp;
beforeAll(async () => {
  t = await startApiTestApp({ metrics: createHttpMetrics(registry) });
});
afterAll(() => t.close());

const get = (path: string) => request(t.app).get(path);

const modelPaths = [...elevenApiPaths('acme', 101, { embedQuery: '&inc=1&rtm=5&upd=5' }), '/s/acme'];

describe('CORS', () => {
  it('allows any origin on 200, 304, 4xx and unknown paths', async () => {
    const ok = await get('/api/status/acme/charts');
    const notModified = await get('/api/status/acme/charts').set(
      'If-None-Match',
      ok.headers['etag'] as string,
    );
    for (const res of [
      ok,
      notModified,
      await get('/api/status/nope/charts'),
      await get('/nowhere'),
      await get('/api/embed/status'),
    ]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it.each(['/api/status-pages/acme/incidents', '/api/embed/status', '/nowhere', '/badge/acme.svg'])(
    'answers a preflight on %s with 204',
    async (path) => {
      const res = await request(t.app)
        .options(path)
        .set('Origin', 'https://example.org')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'if-none-match, x-requested-with');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, OPTIONS',
        'access-control-allow-headers': 'if-none-match, x-requested-with',
        'access-control-max-age': '86400',
      });
    },
  );

  it('answers * when no request headers are announced', async () => {
    const res = await request(t.app).options('/api/status/acme/charts');
    expect([res.status, res.headers['access-control-allow-headers']]).toEqual([204, '*']);
  });
});

describe('ETag and If-None-Match', () => {
  it.each(modelPaths)('%s: strong ETag, 304 without a body on a match', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const etag = res.headers['etag'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get(path)).headers['etag']).toBe(etag);
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const again = await get(path).set('If-None-Match', header);
      expect([again.status, again.text, again.headers['etag']], header).toEqual([304, '', etag]);
      expect(again.headers['cache-control']).toBe(res.headers['cache-control']);
    }
    expect((await get(path).set('If-None-Match', '"other"')).status).toBe(200);
  });

  it('has no x-powered-by and no weak ETag from Express', async () => {
    const res = await get('/api/status-pages/acme/incidents');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['etag']).not.toMatch(/^W\//);
  });
});

describe('unknown paths, probes, OpenAPI', () => {
  it('answers 404 JSON for unknown paths and other methods', async () => {
    for (const res of [
      await get('/nowhere'),
      await get('/api/status-pages/acme'),
      await request(t.app).post('/api/status/acme/charts'),
    ]) {
      expect([res.status, res.body, res.headers['cache-control']]).toEqual([
        404,
        { error: 'not found' },
        'no-store',
      ]);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });

  it('answers /healthz', async () => {
    const res = await get('/healthz');
    expect([res.status, res.text, res.headers['cache-control']]).toEqual([
      200,
      '{"status":"ok"}',
      'no-store',
    ]);
  });

  it('serves an OpenAPI 3.1 document covering every endpoint', async () => {
    const res = await get('/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as {
      openapi: string;
      paths: Record<string, { get: { parameters?: { name: string }[]; responses: Record<string, unknown> } }>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/embed/markdown',
      '/api/embed/status',
      '/api/embed/stream',
      '/api/status-page/{slug}/minute-data',
      '/api/status-pages/{slug}/incidents',
      '/api/status-pages/{slug}/incidents/daily-counts',
      '/api/status-pages/{slug}/incidents/filter',
      '/api/status-pages/{slug}/maintenances',
      '/api/status-pages/{slug}/maintenances/daily-counts',
      '/api/status-pages/{slug}/maintenances/filter',
      '/api/status-pages/{slug}/monitors/{monitorID}/availability',
      '/api/status-pages/{slug}/sla',
      '/api/status-pages/{slug}/subscribers',
      '/api/status/{slug}/charts',
      '/badge/{file}',
      '/healthz',
      '/openapi.json',
      '/push/{token}',
      '/s/{slug}',
      '/s/{slug}/api/v2/components.json',
      '/s/{slug}/api/v2/incidents.json',
      '/s/{slug}/api/v2/incidents/unresolved.json',
      '/s/{slug}/api/v2/scheduled-maintenances.json',
      '/s/{slug}/api/v2/scheduled-maintenances/active.json',
      '/s/{slug}/api/v2/scheduled-maintenances/upcoming.json',
      '/s/{slug}/api/v2/status.json',
      '/s/{slug}/api/v2/summary.json',
      '/s/{slug}/feed.atom',
      '/s/{slug}/feed.rss',
      '/s/{slug}/sla/{period}',
      '/static/embed/v1/status.js',
      '/v1/pages/{slug}/subscribers',
      '/v1/pages/{slug}/subscribers/{id}',
      '/v1/pages/{slug}/subscribers/{id}/deliveries',
      '/v1/pages/{slug}/subscribers/{id}/enable',
      '/v1/pages/{slug}/subscribers/{id}/rotate-secret',
    ]);
    const stream = doc.paths['/api/embed/stream']?.get;
    expect(stream?.parameters?.map((p) => p.name)).toEqual(['slug', 'inc', 'rtm', 'upd', 'auth_token']);
    expect(Object.keys(stream?.responses ?? {})).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '500',
      '503',
    ]);
    const embed = doc.paths['/api/embed/status']?.get;
    expect(embed?.parameters?.map((p) => p.name)).toEqual(['slug', 'inc', 'rtm', 'upd', 'auth_token']);
    expect(Object.keys(embed?.responses ?? {})).toEqual([
      '200',
      '304',
      '400',
      '401',
      '403',
      '404',
      '500',
      '503',
    ]);
  });
});

describe('without read models', () => {
  let bare: ApiTestApp;
  beforeAll(async () => {
    bare = await startApiTestApp({ seed: false });
  });
  afterAll(() => bare.close());

  it('answers 503 with Retry-After on every model-backed endpoint, and recovers', async () => {
    for (const path of modelPaths.filter((p) => !p.startsWith('/s/'))) {
      const res = await request(bare.app).get(path);
      expect([res.status, res.body, res.headers['retry-after'], res.headers['cache-control']], path).toEqual([
        503,
        { error: 'service unavailable' },
        '5',
        'no-store',
      ]);
    }
    const page = await request(bare.app).get('/s/acme'); // people read this one: HTML, not JSON
    expect([page.status, page.headers['content-type'], page.headers['retry-after']]).toEqual([
      503,
      'text/html; charset=utf-8',
      '5',
    ]);
    expect(page.text).toContain('<h1>Status temporarily unavailable</h1>');
    const badge = await request(bare.app).get('/badge/acme.svg');
    expect([badge.status, badge.headers['content-type']]).toEqual([503, 'image/svg+xml; charset=utf-8']);
    for (const path of ['/healthz', '/static/embed/v1/status.js', '/openapi.json']) {
      expect((await request(bare.app).get(path)).status, path).toBe(200);
    }
    await bare.redis.set(activeKey(bare.prefix), `${SEED_VERSION}:${SEED_PARTITIONS}`);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the pointer is cached for a second
    expect((await request(bare.app).get('/api/status/acme/charts')).body).toEqual({
      error: 'status page not found',
    });
  });
});

describe('with Redis unreachable', () => {
  it('answers 503 service unavailable, not 500', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    down.on('error', () => undefined);
    const app = buildApp({
      redis: down,
      prefix: 'nowhere',
      config: loadConfig({}),
      log: pino({ level: 'silent' }),
    });
    const res = await request(app).get('/api/status/acme/charts');
    expect([res.status, res.body, res.headers['retry-after']]).toEqual([
      503,
      { error: 'service unavailable' },
      '5',
    ]);
    expect((await request(app).get('/healthz')).status).toBe(200);
    down.disconnect();
  });
});

describe('hostile input', () => {
  const long = 'a'.repeat(5000);
  it.each([
    ['/api/status-pages/%E0%A4%A/incidents', 404],
    ['/api/status/%E0%A4%A/charts', 404],
    ['/api/status-page/%/minute-data', 404],
    ['/api/status-pages/acme/monitors/%E0%A4%A/availability', 404],
    ['/api/status-pages/%E0%A4%A/monitors/1/availability', 404],
    ['/api/status-pages/acme/incidents/daily-counts?month=%E0%A4%A', 400],
    ['/api/embed/status?slug=%E0%A4%A', 404],
    ['/api/status-pages/{long}/incidents', 404],
    ['/api/embed/status?slug={long}', 404],
    ['/badge/{long}.svg', 404],
    ['/api/status-pages/acme/incidents?page=1e3', 400],
    ['/api/status-pages/acme/incidents?page_size=-1', 400],
    ['/api/status-pages/acme/incidents?page=1&page=2', 400],
    ['/api/status-pages/acme/incidents?page[a]=1', 200],
    ['/api/status-pages/acme/incidents?page=99999999999999999999999', 400],
    ['/api/embed/status?slug[]=acme', 400],
    ['/api/embed/status?slug=acme&rtm[]=1', 200],
    ['/api/status-pages/%C3%A9t%C3%A9/incidents', 404],
    ['/api/embed/status?slug=%F0%9F%98%80', 404],
    ['/api/status-pages/acme%00/incidents', 404],
    ['/api/status-pages/..%2F..%2Fetc/incidents', 404],
    ['/api/status-pages/acme/maintenances?status=%00', 400],
    ['/s/%E0%A4%A', 404],
    ['/api/status/acme/charts?auth_token=%E0%A4%A', 200],
  ])('%s answers %i', async (path, status) => {
    expect((await get(path.replace('{long}', long))).status).toBe(status);
  });

  it('survives odd headers', async () => {
    expect((await get('/api/status/acme/charts').set('If-None-Match', ',,, W/')).status).toBe(200);
    const preflight = await request(t.app).options('/x').set('Access-Control-Request-Headers', 'a\tb, (c)');
    expect([preflight.status, preflight.headers['access-control-allow-headers']]).toEqual([204, '*']);
  });
});

describe('request log and metrics', () => {
  it('logs the route pattern, status and duration, never a token', async () => {
    const secret = `${TOKEN}-never-logged`;
    await get(`/api/status-pages/secret/incidents?auth_token=${TOKEN}`);
    for (const path of [
      '/api/status-pages/secret/incidents',
      '/api/embed/status?slug=secret',
      '/api/status/secret/charts',
      '/nowhere',
      '/badge/secret.svg',
    ]) {
      await get(`${path}${path.includes('?') ? '&' : '?'}auth_token=${secret}`);
    }
    await get(`/api/embed/status%3Fslug=x&auth_token=${secret}`);
    await get('/push/spp_push-token-never-logged'); // a push token is the path itself
    expect(t.logLines.join('\n')).not.toContain(TOKEN);
    expect(t.logLines.join('\n')).not.toContain('push-token-never-logged');
    const lines = t.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        method: 'GET',
        route: '/api/status-pages/:slug/incidents',
        path: '/api/status-pages/secret/incidents',
        status: 200,
        duration_ms: expect.any(Number) as unknown,
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ route: 'unmatched', status: 404 }));
    expect(lines).toContainEqual(expect.objectContaining({ path: '/push/[redacted]' }));
  });

  it('counts requests per route pattern and status', async () => {
    await get('/api/status/acme/charts');
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/http_requests_total\{route="\/api\/status\/:slug\/charts",status="200"\} \d+/);
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{route="\/api\/status\/:slug\/charts"\} \d+/,
    );
  });
});
