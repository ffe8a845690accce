// Charts and minute-data (assembled from the monitors' series at the app's clock), availability
// (stored bodies sent byte for byte), and their access rules.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availability,
  charts,
  minute,
  monitorOf,
  startApiTestApp,
  TOKEN,
  type ApiTestApp,
} from '../support/apiFixture.ts';
import { etagOf } from '../../projections/store/bytes.ts';

let t: ApiTestApp;
beforeAll(async () => {
  t = await startApiTestApp();
});
afterAll(() => t.close());

const get = (path: string) => request(t.app).get(path);

describe('GET /api/status/:slug/charts and /api/status-page/:slug/minute-data', () => {
  it.each([
    ['/api/status/acme/charts', charts],
    ['/api/status-page/acme/minute-data', minute],
  ])(
    "%s answers the figures of the seeded checks at the clock's instant, never cached",
    async (path, body) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify(body));
      expect(res.headers['etag']).toBe(etagOf(JSON.stringify(body)));
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    },
  );

  it.each(['/api/status/%s/charts', '/api/status-page/%s/minute-data'])('%s errors', async (pattern) => {
    const at = (slug: string, query = '') => get(pattern.replace('%s', slug) + query);
    for (const slug of ['no-such-page', 'gone', 'UPPER', 'x'.repeat(65)]) {
      expect([(await at(slug)).status, (await at(slug)).body]).toEqual([
        404,
        { error: 'status page not found' },
      ]);
    }
    const blocked = await at('blocked-page');
    expect([blocked.status, blocked.body, blocked.headers['cache-control']]).toEqual([
      403,
      { error: 'status page is blocked' },
      'no-store',
    ]);
    expect((await at('blocked-private')).body).toEqual({ error: 'status page is blocked' });
    for (const query of ['', '?auth_token=nope', `?auth_token=${TOKEN}&auth_token=${TOKEN}`]) {
      const locked = await at('secret', query);
      expect([locked.status, locked.body, locked.headers['cache-control']]).toEqual([
        401,
        { error: 'auth required' },
        'no-store',
      ]);
    }
    const open = await at('secret', `?auth_token=${TOKEN}`);
    expect([open.status, open.headers['cache-control']]).toEqual([200, 'private, no-store']);
  });

  it('answers 503 while a known page has no rendered model yet', async () => {
    const res = await get('/api/status/empty/charts');
    expect([res.status, res.body, res.headers['retry-after']]).toEqual([
      503,
      { error: 'service unavailable' },
      '5',
    ]);
  });
});

describe('GET /api/status-pages/:slug/monitors/:monitorID/availability', () => {
  const path = (query = '', slug = 'acme', id = String(monitorOf[slug] ?? 101)) =>
    `/api/status-pages/${slug}/monitors/${id}/availability${query}`;

  it('answers period 30d by default', async () => {
    const res = await get(path());
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(availability('30d')));
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-if-error=86400');
    expect(res.headers['etag']).toBe(etagOf(JSON.stringify(availability('30d'))));
  });

  it.each(['24h', '7d', '30d', '90d', '1y'])('answers period=%s', async (period) => {
    expect((await get(path(`?period=${period}`))).body).toEqual(availability(period));
  });

  it.each(['?period=1d', '?period=', '?period=30D', '?period=24h&period=7d', '?period=365d'])(
    'answers 400 invalid period for %s',
    async (query) => {
      const res = await get(path(query));
      expect([res.status, res.body, res.headers['cache-control']]).toEqual([
        400,
        { error: 'invalid period' },
        'no-store',
      ]);
    },
  );

  it.each(['102', 'abc', '0', '-1', '1.5', '0101', '1e2', '99999999999999999999'])(
    'answers 404 for monitor %s',
    async (id) => {
      const res = await get(path('', 'acme', id));
      expect([res.status, res.body]).toEqual([404, { error: 'not found' }]);
    },
  );

  it('answers 404 for an unknown, deleted or blocked page', async () => {
    for (const slug of ['no-such-page', 'gone', 'blocked-page', 'blocked-private']) {
      const res = await get(path('', slug));
      expect([res.status, res.body], slug).toEqual([404, { error: 'not found' }]);
    }
  });

  it('answers 403 forbidden for a private page without the right token', async () => {
    for (const query of ['', '?auth_token=wrong', `?auth_token=${TOKEN}x`]) {
      const res = await get(path(query, 'secret'));
      expect([res.status, res.body, res.headers['cache-control']]).toEqual([
        403,
        { error: 'forbidden' },
        'no-store',
      ]);
    }
    const res = await get(path(`?auth_token=${TOKEN}&period=7d`, 'secret'));
    expect([res.status, res.body, res.headers['cache-control']]).toEqual([
      200,
      availability('7d', monitorOf['secret']),
      'private, no-store',
    ]);
  });

  it('applies the precedence: token, then monitor, then period', async () => {
    expect((await get(path('?period=bad', 'secret', 'abc'))).body).toEqual({ error: 'forbidden' });
    expect((await get(path(`?period=bad&auth_token=${TOKEN}`, 'secret', '999'))).body).toEqual({
      error: 'not found',
    });
    expect((await get(path(`?period=bad&auth_token=${TOKEN}`, 'secret'))).body).toEqual({
      error: 'invalid period',
    });
    expect((await get(path('?period=bad', 'no-such-page', 'abc'))).body).toEqual({ error: 'not found' });
  });
});
