// The read API end to end: events through the write path, the real projector, then HTTP.
// Every body below is computed by hand from the fixture (now = 2026-11-22T12:00:30Z; answers
// assembled when read at the instant 12:00:00, the minute's start).
// Monitor 1 "API" (major): up 11:00, down 11:30–11:45, up, degraded from 12:00.
// Monitor 2 "DNS" (dns, impact none): up from 11:00.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';

const incident = (type: string, id: string, at: string, data: object) => ({
  type,
  page: 'shop',
  at,
  data: { incident_id: id, ...data },
});
const maintenance = (id: string, start: string, end: string, at = '2026-11-19T00:00:00Z') => ({
  type: 'maintenance.scheduled',
  page: 'shop',
  at,
  data: {
    maintenance_id: id,
    title: `Work ${id}`,
    description: `About ${id}`,
    scheduled_start: start,
    scheduled_end: end,
  },
});

const iNow = {
  id: 'i-now',
  title: 'API errors',
  state: 'investigating',
  started_at: '2026-11-22T11:30:00Z',
  components: ['API', 'Web'],
  updates: [{ status: 'investigating', message: 'Looking into it', created_at: '2026-11-22T11:30:00Z' }],
};
const iOld = {
  id: 'i-old',
  title: 'Old outage',
  state: 'resolved',
  started_at: '2026-10-05T08:00:00Z',
  resolved_at: '2026-10-05T09:00:00Z',
  components: ['API'],
  updates: [
    { status: 'investigating', message: 'Down', created_at: '2026-10-05T08:00:00Z' },
    { status: 'resolved', message: 'Fixed', created_at: '2026-10-05T09:00:00Z' },
  ],
};
const mw = (id: string, status: string, start: string, end: string, createdAt = '2026-11-19T00:00:00Z') => ({
  id,
  title: `Work ${id}`,
  description: `About ${id}`,
  status,
  scheduled_start: start,
  scheduled_end: end,
  components: [],
  created_at: createdAt,
});
const mwNext = mw('mw-next', 'scheduled', '2026-11-30T23:00:00Z', '2026-12-01T01:00:00Z');
const mwCancel = mw('mw-cancel', 'cancelled', '2026-11-25T10:00:00Z', '2026-11-25T11:00:00Z');
const mwNow = mw('mw-now', 'in_progress', '2026-11-22T11:50:00Z', '2026-11-22T12:30:00Z');
const mwDone = mw('mw-done', 'completed', '2026-11-20T01:00:00Z', '2026-11-20T02:00:00Z');

const days = (month: string, count: number, ones: string[]) =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => {
      const date = `${month}-${String(i + 1).padStart(2, '0')}`;
      return [date, ones.includes(date) ? 1 : 0];
    }),
  );

describe('the read API over projected models', () => {
  let env: ProjectorEnv;
  let api: ReturnType<typeof request>;
  const get = (path: string) => api.get(path);

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
    await env.append(
      pageConfigured('shop', { title: 'Shop' }, '2026-10-01T00:00:00Z'),
      monitorConfigured('shop', 1, { name: 'API', impact: 'major', position: 1 }, '2026-10-01T00:00:00Z'),
      monitorConfigured(
        'shop',
        2,
        { name: 'DNS', type: 'dns', impact: 'none', position: 2 },
        '2026-10-01T00:00:00Z',
      ),
      incident('incident.opened', 'i-old', '2026-10-05T08:00:00Z', {
        title: 'Old outage',
        message: 'Down',
        components: ['API'],
      }),
      incident('incident.updated', 'i-old', '2026-10-05T09:00:00Z', { state: 'resolved', message: 'Fixed' }),
      maintenance('mw-done', '2026-11-20T01:00:00Z', '2026-11-20T02:00:00Z'),
      maintenance('mw-now', '2026-11-22T11:50:00Z', '2026-11-22T12:30:00Z'),
      maintenance('mw-next', '2026-11-30T23:00:00Z', '2026-12-01T01:00:00Z'),
      maintenance('mw-cancel', '2026-11-25T10:00:00Z', '2026-11-25T11:00:00Z'),
      {
        type: 'maintenance.cancelled',
        page: 'shop',
        at: '2026-11-20T00:00:00Z',
        data: { maintenance_id: 'mw-cancel' },
      },
      check('shop', 1, '2026-11-22T11:00:00Z', 'up', 100),
      check('shop', 2, '2026-11-22T11:00:00Z', 'up', 50),
      incident('incident.opened', 'i-now', '2026-11-22T11:30:00Z', {
        title: 'API errors',
        message: 'Looking into it',
        components: ['API', 'Web'],
      }),
      check('shop', 1, '2026-11-22T11:30:00Z', 'down', 300),
      check('shop', 1, '2026-11-22T11:45:00Z', 'up', 200),
      check('shop', 1, '2026-11-22T12:00:00Z', 'degraded', 400),
      pageConfigured('vault', { plan: 'business', auth_token: 'secret-token-0123456789' }),
      pageConfigured('shut', { blocked: true }),
      pageConfigured('gone'),
      { type: 'page.deleted', page: 'gone', at: '2026-11-02T00:00:00Z', data: {} },
      pageConfigured('cheap', { plan: 'free' }),
      pageConfigured('mid', { plan: 'pro' }),
      pageConfigured('brand', { custom_domain: 'status.brand.example' }),
    );
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    api = request(appOf(env, config));
  });
  afterAll(() => env.close());

  it('lists, pages and filters incidents', async () => {
    expect((await get('/api/status-pages/shop/incidents')).body).toEqual({
      incidents: [iNow, iOld],
      page: 1,
      page_size: 20,
      total_pages: 1,
      total_items: 2,
    });
    expect((await get('/api/status-pages/shop/incidents?page=2&page_size=1')).body).toEqual({
      incidents: [iOld],
      page: 2,
      page_size: 1,
      total_pages: 2,
      total_items: 2,
    });
    expect((await get('/api/status-pages/shop/incidents?page=3&page_size=1')).body.incidents).toEqual([]);
    expect((await get('/api/status-pages/shop/incidents/filter?month=2026-10')).body).toEqual({
      incidents: [iOld],
      month: '2026-10',
      total_items: 1,
    });
    expect((await get('/api/status-pages/shop/incidents/daily-counts?month=2026-10')).body).toEqual({
      counts: days('2026-10', 31, ['2026-10-05']),
      start_date: '2026-10-01',
      end_date: '2026-10-31',
    });
    expect((await get('/api/status-pages/shop/incidents/daily-counts?month=2027-02')).body).toEqual({
      counts: days('2027-02', 28, []),
      start_date: '2027-02-01',
      end_date: '2027-02-28',
    });
  });

  it('lists, filters and counts maintenances with their status by the clock', async () => {
    expect((await get('/api/status-pages/shop/maintenances')).body).toEqual({
      maintenances: [mwNext, mwCancel, mwNow, mwDone], // scheduled_start descending
      page: 1,
      page_size: 20,
      total_pages: 1,
      total_items: 4,
    });
    for (const [status, items] of [
      ['scheduled', [mwNext]],
      ['in_progress', [mwNow]],
      ['completed', [mwDone]],
      ['cancelled', [mwCancel]],
    ] as const)
      expect((await get(`/api/status-pages/shop/maintenances?status=${status}`)).body.maintenances).toEqual(
        items,
      );
    expect((await get('/api/status-pages/shop/maintenances/filter?month=2026-12')).body).toEqual({
      maintenances: [mwNext],
      month: '2026-12',
      total_items: 1,
    });
    // Cancelled windows are not counted; mw-next counts on Nov 30 and Dec 1.
    expect((await get('/api/status-pages/shop/maintenances/daily-counts?month=2026-11')).body.counts).toEqual(
      days('2026-11', 30, ['2026-11-20', '2026-11-22', '2026-11-30']),
    );
    expect((await get('/api/status-pages/shop/maintenances/daily-counts?month=2026-12')).body.counts).toEqual(
      days('2026-12', 31, ['2026-12-01']),
    );
  });

  it('serves the charts and minute data', async () => {
    const charts = await get('/api/status/shop/charts');
    expect(charts.headers['cache-control']).toBe('no-store');
    expect(charts.body).toEqual({
      monitors: [
        {
          id: 1,
          name: 'API',
          state: 'degraded',
          avg_response_time_today: 250, // (100 + 300 + 200 + 400) / 4
          hourly_data: [
            { hour: 11, avg_response: 200, uptime: 75 }, // 900 s down of 3600
            { hour: 12, avg_response: 400, uptime: 100 },
          ],
          minute_data: [
            { minute: '2026-11-22T11:30:00Z', response_time: 300, status: 'down' },
            { minute: '2026-11-22T11:45:00Z', response_time: 200, status: 'up' },
            { minute: '2026-11-22T12:00:00Z', response_time: 400, status: 'degraded' },
          ],
          yesterday_hourly_data: [],
        },
        {
          id: 2,
          name: 'DNS',
          state: 'up',
          avg_response_time_today: 50,
          hourly_data: [{ hour: 11, avg_response: 50, uptime: 100 }],
          minute_data: [], // 11:00 is before the 60-minute window (11:01–12:00)
          yesterday_hourly_data: [],
        },
      ],
      overall: 'degraded_performance', // API degraded; DNS has impact none
      // At the instant 12:00:00 (the minute's start; no event is later): mean(100 × (1 − 900/3600), 100)
      globalDaily: [{ date: '2026-11-22', uptime: 87.5 }],
      timestamp: Date.parse('2026-11-22T12:00:00Z') / 1000,
    });
    expect((await get('/api/status-page/shop/minute-data')).body).toEqual({
      monitors: [
        { id: 1, minute_data: charts.body.monitors[0].minute_data },
        { id: 2, minute_data: [] },
      ],
    });
  });

  it('serves availability', async () => {
    const res = await get('/api/status-pages/shop/monitors/1/availability?period=24h');
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-if-error=86400');
    expect(res.body).toEqual({
      monitor_id: 1,
      monitor_name: 'API',
      period: '24h',
      availability: {
        uptime_percentage: 98.958, // 85500 / 86400
        downtime_seconds: 900,
        total_seconds: 86400,
        mtbf_seconds: 85500,
        mttr_seconds: 900,
        incident_count: 1,
      },
      daily_breakdown: [
        { date: '2026-11-22', uptime_percentage: 97.918, downtime_seconds: 900 }, // of 43230 s
        { date: '2026-11-21', uptime_percentage: 100, downtime_seconds: 0 },
      ],
    });
    expect((await get('/api/status-pages/shop/monitors/1/availability')).body.period).toBe('30d');
    expect((await get('/api/status-pages/shop/monitors/9/availability')).body).toEqual({
      error: 'not found',
    });
    expect((await get('/api/status-pages/shop/monitors/1/availability?period=2d')).body).toEqual({
      error: 'invalid period',
    });
  });

  it('serves the embed status with incidents and sparklines', async () => {
    const base = {
      page: 'shop',
      page_url: 'http://status.test/s/shop',
      overall: 'degraded_performance',
      updated: '2026-11-22T12:00:00Z',
      incidents: [],
      dns_only: false,
    };
    const basic = await get('/api/embed/status?slug=shop');
    expect(basic.headers['cache-control']).toBe('public, max-age=15, stale-if-error=86400');
    expect(basic.body).toEqual(base);
    expect(Object.keys(basic.body)).toEqual([
      'page',
      'page_url',
      'overall',
      'updated',
      'incidents',
      'dns_only',
    ]);
    const full = await get('/api/embed/status?slug=shop&inc=1&rtm=31&upd=2');
    expect(full.body).toEqual({
      ...base,
      incidents: [
        {
          id: 'i-now',
          title: 'API errors',
          state: 'investigating',
          started: '2026-11-22T11:30:00Z',
          component: 'API, Web',
        },
      ],
      // 11:30–11:44 carry 300 forward, 11:45–11:59 carry 200, 12:00 is 400
      rtm: [...Array<number>(15).fill(300), ...Array<number>(15).fill(200), 400],
      upd: [100, 87.5], // yesterday without data, today (at the instant 12:00:00)
    });
    expect(Object.keys(full.body)).toEqual([
      'page',
      'page_url',
      'overall',
      'updated',
      'incidents',
      'rtm',
      'upd',
      'dns_only',
    ]);
    expect((await get('/api/embed/status?slug=shop&rtm=3')).body.rtm).toEqual([400, 400, 400]); // leading empties
  });

  it('serves snippets, the badge and the status page', async () => {
    const script = 'http://status.test/static/embed/v1/status.js';
    expect((await get('/api/embed/markdown?slug=shop')).body).toEqual({
      status_page_url: 'http://status.test/s/shop',
      badge_markdown: '[![Status](http://status.test/badge/shop.svg)](http://status.test/s/shop)',
      badge_html:
        '<a href="http://status.test/s/shop"><img alt="Status" src="http://status.test/badge/shop.svg"></a>',
      widget_script: `<script src="${script}" data-slug="shop" data-theme="auto" async></script>`,
      widget_html: `<div class="status-widget"><script src="${script}" data-slug="shop" data-theme="auto" data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>`,
      minimal_md: '**Degraded Performance** · [View status page](http://status.test/s/shop)',
    });
    expect((await get('/api/embed/markdown?slug=brand')).body.status_page_url).toBe(
      'https://status.brand.example',
    );
    const badge = await get('/badge/shop.svg');
    expect(badge.status).toBe(200);
    expect(badge.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(String(badge.body)).toContain('Degraded Performance');
    const html = await get('/s/shop');
    expect(html.status).toBe(200);
    expect(html.text).toContain('data-slug="shop"');
  });

  it('applies access and plan rules to projected pages', async () => {
    const error = async (path: string) => {
      const res = await get(path);
      return [res.status, res.body.error as string];
    };
    expect(await error('/api/status/vault/charts')).toEqual([401, 'auth required']);
    expect(await error('/api/status/vault/charts?auth_token=wrong-token-0123456789')).toEqual([
      401,
      'auth required',
    ]);
    const allowed = await get('/api/status/vault/charts?auth_token=secret-token-0123456789');
    expect(allowed.status).toBe(200);
    expect(allowed.headers['cache-control']).toBe('private, no-store');
    expect(await error('/api/status-pages/vault/incidents')).toEqual([401, 'auth required']);
    expect(await error('/api/status/shut/charts')).toEqual([403, 'status page is blocked']);
    expect(await error('/api/status-pages/shut/incidents')).toEqual([404, 'not found']);
    expect(await error('/api/status/gone/charts')).toEqual([404, 'status page not found']);
    expect(await error('/api/embed/status?slug=gone')).toEqual([404, 'not found']);
    expect(await error('/api/embed/status?slug=cheap')).toEqual([403, 'embeds not available in your plan']);
    expect(await error('/api/embed/markdown?slug=mid')).toEqual([
      403,
      'Markdown API requires Growth plan or higher',
    ]);
    expect((await get('/api/embed/status?slug=mid')).status).toBe(200);
    expect(await error('/api/embed/status?slug=mid&upd=3')).toEqual([
      403,
      'incidents and sparklines require Growth plan or higher',
    ]);
  });

  it('follows the clock: the maintenance ends, statuses and overall change, ETags too', async () => {
    env.setNow('2026-11-22T12:20:00Z');
    await env.append(check('shop', 1, '2026-11-22T12:10:00Z', 'up', 150));
    await env.project();
    const during = await get('/api/embed/status?slug=shop');
    expect(during.body.overall).toBe('under_maintenance'); // API up again, maintenance running
    const etag = during.headers['etag'] as string;
    expect((await api.get('/api/embed/status?slug=shop').set('If-None-Match', etag)).status).toBe(304);
    env.setNow('2026-11-22T12:30:05Z');
    await env.project(); // no new event: only the clock moved
    expect((await get('/api/status/shop/charts')).body.overall).toBe('operational');
    const after = await get('/api/embed/status?slug=shop');
    expect(after.body.overall).toBe('operational');
    expect(after.headers['etag']).not.toBe(etag);
    expect((await api.get('/api/embed/status?slug=shop').set('If-None-Match', etag)).status).toBe(200);
    expect((await get('/api/status-pages/shop/maintenances?status=completed')).body.maintenances).toEqual([
      { ...mwNow, status: 'completed' },
      mwDone,
    ]);
  });
});
