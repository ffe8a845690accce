// Incidents and maintenances: the six list, filter and daily-counts endpoints.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidents, maintenances, startApiTestApp, TOKEN, type ApiTestApp } from '../support/apiFixture.ts';
import { dailyCounts } from '../support/seedReadModels.ts';

let t: ApiTestApp;
beforeAll(async () => {
  t = await startApiTestApp();
});
afterAll(() => t.close());

const get = (path: string) => request(t.app).get(path);
const [inc3, inc2, inc1] = incidents;
const [mnt4, mnt3, mnt2, mnt1] = maintenances;

describe('GET /api/status-pages/:slug/incidents', () => {
  it('answers the first page, newest first, with the envelope and the headers', async () => {
    const res = await get('/api/status-pages/acme/incidents');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      incidents: [inc3, inc2, inc1],
      page: 1,
      page_size: 20,
      total_pages: 1,
      total_items: 3,
    });
    expect(Object.keys(res.body as object)).toEqual([
      'incidents',
      'page',
      'page_size',
      'total_pages',
      'total_items',
    ]);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-if-error=86400');
    expect(res.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('pages with page and page_size; a page past the end is empty', async () => {
    expect((await get('/api/status-pages/acme/incidents?page=2&page_size=2')).body).toEqual({
      incidents: [inc1],
      page: 2,
      page_size: 2,
      total_pages: 2,
      total_items: 3,
    });
    expect((await get('/api/status-pages/acme/incidents?page=3&page_size=2')).body).toEqual({
      incidents: [],
      page: 3,
      page_size: 2,
      total_pages: 2,
      total_items: 3,
    });
    expect((await get('/api/status-pages/acme/incidents?page=9007199254740991&page_size=100')).body).toEqual({
      incidents: [],
      page: 9007199254740991,
      page_size: 100,
      total_pages: 1,
      total_items: 3,
    });
  });

  it('answers total_pages 0 for a page without incidents', async () => {
    expect((await get('/api/status-pages/empty/incidents')).body).toEqual({
      incidents: [],
      page: 1,
      page_size: 20,
      total_pages: 0,
      total_items: 0,
    });
  });

  it.each([
    'page=0',
    'page=-1',
    'page=1.0',
    'page=01',
    'page=1e3',
    'page=%201',
    'page=',
    'page=abc',
    'page=9007199254740992',
    'page_size=0',
    'page_size=101',
    'page_size=-1',
    'page_size=020',
    'page=1&page=2',
    'page_size=10&page_size=10',
  ])('answers 400 invalid parameters for %s', async (query) => {
    const res = await get(`/api/status-pages/acme/incidents?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid parameters' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('GET /api/status-pages/:slug/maintenances', () => {
  it('lists every maintenance (status=all by default, cancelled included)', async () => {
    const res = await get('/api/status-pages/acme/maintenances');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      maintenances: [mnt4, mnt3, mnt2, mnt1],
      page: 1,
      page_size: 20,
      total_pages: 1,
      total_items: 4,
    });
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-if-error=86400');
  });

  it.each([
    ['scheduled', [mnt4]],
    ['in_progress', [mnt3]],
    ['completed', [mnt1]],
    ['cancelled', [mnt2]],
    ['all', [mnt4, mnt3, mnt2, mnt1]],
  ])('filters status=%s', async (status, expected) => {
    const res = await get(`/api/status-pages/acme/maintenances?status=${status}`);
    expect(res.body).toEqual({
      maintenances: expected,
      page: 1,
      page_size: 20,
      total_pages: 1,
      total_items: expected.length,
    });
  });

  it('pages the status lists', async () => {
    expect((await get('/api/status-pages/acme/maintenances?page=2&page_size=3')).body).toEqual({
      maintenances: [mnt1],
      page: 2,
      page_size: 3,
      total_pages: 2,
      total_items: 4,
    });
  });

  it.each(['status=Scheduled', 'status=', 'status=done', 'status=all&status=all', 'page=0', 'page_size=101'])(
    'answers 400 invalid parameters for %s',
    async (query) => {
      const res = await get(`/api/status-pages/acme/maintenances?${query}`);
      expect([res.status, res.body]).toEqual([400, { error: 'invalid parameters' }]);
    },
  );
});

describe('month filters', () => {
  it('lists the incidents started in the month', async () => {
    const res = await get('/api/status-pages/acme/incidents/filter?month=2026-11');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ incidents: [inc3, inc2], month: '2026-11', total_items: 2 });
    expect(Object.keys(res.body as object)).toEqual(['incidents', 'month', 'total_items']);
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-if-error=86400');
    expect(res.headers['etag']).toMatch(/^"[\w-]+"$/);
  });

  it('lists the maintenances whose window overlaps the month, any status', async () => {
    expect((await get('/api/status-pages/acme/maintenances/filter?month=2026-11')).body).toEqual({
      maintenances: [mnt3, mnt2, mnt1],
      month: '2026-11',
      total_items: 3,
    });
    expect((await get('/api/status-pages/acme/maintenances/filter?month=2026-10')).body).toEqual({
      maintenances: [mnt1],
      month: '2026-10',
      total_items: 1,
    });
  });

  it('answers an empty month', async () => {
    expect((await get('/api/status-pages/acme/incidents/filter?month=2025-01')).body).toEqual({
      incidents: [],
      month: '2025-01',
      total_items: 0,
    });
  });
});

describe('daily counts', () => {
  it('answers the stored counts of a month, every day present', async () => {
    const res = await get('/api/status-pages/acme/incidents/daily-counts?month=2026-11');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(dailyCounts('2026-11', { '2026-11-03': 1, '2026-11-20': 1 }));
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-if-error=86400');
  });

  it('counts maintenance days of non-cancelled windows', async () => {
    const res = await get('/api/status-pages/acme/maintenances/daily-counts?month=2026-11');
    expect(res.body).toEqual(dailyCounts('2026-11', { '2026-11-01': 1, '2026-11-22': 1 }));
  });

  it('answers the all-zero month when nothing is stored for it, keys ascending', async () => {
    const res = await get('/api/status-pages/acme/incidents/daily-counts?month=2024-02');
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(dailyCounts('2024-02')));
    expect(Object.keys((res.body as { counts: object }).counts)).toHaveLength(29);
    expect(res.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect((await get('/api/status-pages/empty/maintenances/daily-counts?month=2100-02')).body).toEqual(
      dailyCounts('2100-02'),
    );
  });

  it.each(['incidents', 'maintenances'])(
    '%s: month is required and must be a real YYYY-MM month',
    async (kind) => {
      for (const query of [
        '',
        '?month=',
        '?month=2026-13',
        '?month=2026-00',
        '?month=2026-1',
        '?month=26-11',
        '?month=2026-11-01',
        '?month=2026-11&month=2026-12',
      ]) {
        for (const endpoint of ['filter', 'daily-counts']) {
          const res = await get(`/api/status-pages/acme/${kind}/${endpoint}${query}`);
          expect([res.status, res.body], `${endpoint}${query}`).toEqual([
            400,
            { error: 'invalid parameters' },
          ]);
        }
      }
    },
  );
});

describe('access to the six endpoints', () => {
  const paths = (slug: string) => [
    `/api/status-pages/${slug}/incidents`,
    `/api/status-pages/${slug}/incidents/filter?month=2026-11`,
    `/api/status-pages/${slug}/incidents/daily-counts?month=2026-11`,
    `/api/status-pages/${slug}/maintenances`,
    `/api/status-pages/${slug}/maintenances/filter?month=2026-11`,
    `/api/status-pages/${slug}/maintenances/daily-counts?month=2026-11`,
  ];

  it.each(['no-such-page', 'gone', 'blocked-page', 'Not-A-Slug', '-bad-'])(
    'answers 404 not found for %s',
    async (slug) => {
      for (const path of paths(slug)) {
        const res = await get(path);
        expect([res.status, res.body], path).toEqual([404, { error: 'not found' }]);
        expect(res.headers['cache-control']).toBe('no-store');
      }
    },
  );

  it('answers 401 auth required on a private page without the right token', async () => {
    for (const path of paths('secret')) {
      for (const token of [
        '',
        '&auth_token=wrong',
        `&auth_token=${TOKEN}&auth_token=${TOKEN}`,
        '&auth_token=',
      ]) {
        const res = await get(path + (path.includes('?') ? token : token.replace('&', '?')));
        expect([res.status, res.body], path + token).toEqual([401, { error: 'auth required' }]);
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('answers a private page with the token, private and not stored', async () => {
    for (const path of paths('secret')) {
      const res = await get(`${path}${path.includes('?') ? '&' : '?'}auth_token=${TOKEN}`);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    expect((await get(`/api/status-pages/secret/incidents?auth_token=${TOKEN}&page_size=1`)).body).toEqual({
      incidents: [inc3],
      page: 1,
      page_size: 1,
      total_pages: 3,
      total_items: 3,
    });
  });

  it('applies the precedence: unknown page, then blocked, then token, then parameters', async () => {
    expect((await get('/api/status-pages/no-such-page/incidents?page=0')).status).toBe(404);
    expect((await get('/api/status-pages/blocked-private/incidents?page=0')).status).toBe(404);
    expect((await get('/api/status-pages/gone/maintenances/filter')).status).toBe(404);
    const locked = await get('/api/status-pages/secret/incidents/daily-counts?month=bad');
    expect([locked.status, locked.body]).toEqual([401, { error: 'auth required' }]);
    const invalid = await get(
      `/api/status-pages/secret/incidents/daily-counts?month=bad&auth_token=${TOKEN}`,
    );
    expect([invalid.status, invalid.body]).toEqual([400, { error: 'invalid parameters' }]);
  });
});
