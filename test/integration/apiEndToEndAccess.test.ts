// Access and plan rules end to end: pages created through the write path, models rendered by the
// real projector, then every endpoint over HTTP. Bodies computed by hand (now N below).
//
//   vault  business, private (auth_token); monitor 21 up at 12:00:00 (80 ms); incident inc-v open
//   shut   growth, blocked; monitor 31
//   gone   growth, deleted on 11-02 (it had monitor 71)
//   cheap  free; monitor 41
//   mid    pro; monitor 51 degraded at 11:59 (250 ms)
//   brand  growth, custom domain status.brand.example; monitor 61 (dns, impact major) down at 12:00
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { badgeSvg } from '../../src/embed/badgeSvg.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const N = '2026-11-22T12:00:30Z';
const TOKEN = 'vault-token-0123456789abcdef';
const SCRIPT = 'http://status.test/static/embed/v1/status.js';

const zeroMonth = (month: string, days: number, nonZero: Record<string, number> = {}) => ({
  counts: Object.fromEntries(
    Array.from({ length: days }, (_, i) => {
      const date = `${month}-${String(i + 1).padStart(2, '0')}`;
      return [date, nonZero[date] ?? 0];
    }),
  ),
  start_date: `${month}-01`,
  end_date: `${month}-${String(days)}`,
});

/** Every JSON endpoint of a page, by the error family it answers with. */
const pageEndpoints = (slug: string, monitorId: number) => ({
  charts: [`/api/status/${slug}/charts`, `/api/status-page/${slug}/minute-data`],
  lists: [
    `/api/status-pages/${slug}/incidents`,
    `/api/status-pages/${slug}/incidents/filter?month=2026-11`,
    `/api/status-pages/${slug}/incidents/daily-counts?month=2026-11`,
    `/api/status-pages/${slug}/maintenances`,
    `/api/status-pages/${slug}/maintenances/filter?month=2026-11`,
    `/api/status-pages/${slug}/maintenances/daily-counts?month=2026-11`,
  ],
  embed: [`/api/embed/status?slug=${slug}`, `/api/embed/markdown?slug=${slug}`],
  availability: [`/api/status-pages/${slug}/monitors/${monitorId}/availability?period=24h`],
  html: [`/s/${slug}`],
});

const withToken = (path: string, token: string) =>
  `${path}${path.includes('?') ? '&' : '?'}auth_token=${token}`;

describe('access and plans end to end', () => {
  let env: ProjectorEnv;
  let api: ReturnType<typeof request>;
  const get = (path: string) => api.get(path);
  const svg = (path: string) =>
    api
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          done(null, text);
        });
      });
  /** [status, body, Cache-Control] of a JSON answer. */
  const answer = async (path: string) => {
    const res = await get(path);
    return [res.status, res.body as unknown, res.headers['cache-control']];
  };

  /** The status page answers people: an HTML page, not JSON. */
  const notFoundPage = async (path: string) => {
    const res = await get(path);
    return [
      res.status,
      res.headers['content-type'],
      res.headers['cache-control'],
      res.text.includes('<h1>Status page not found</h1>'),
    ];
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    await env.append(
      pageConfigured('vault', { title: 'Vault', plan: 'business', auth_token: TOKEN }),
      monitorConfigured('vault', 21, { name: 'Vault API' }),
      {
        type: 'incident.opened',
        page: 'vault',
        at: '2026-11-22T11:00:00Z',
        data: { incident_id: 'inc-v', title: 'Slow vault', message: 'Slow.' },
      },
      check('vault', 21, '2026-11-22T12:00:00Z', 'up', 80),
      pageConfigured('shut', { blocked: true }),
      monitorConfigured('shut', 31),
      check('shut', 31, '2026-11-22T12:00:00Z', 'up', 90),
      pageConfigured('gone'),
      monitorConfigured('gone', 71),
      check('gone', 71, '2026-11-01T12:00:00Z', 'up', 100),
      { type: 'page.deleted', page: 'gone', at: '2026-11-02T00:00:00Z', data: {} },
      pageConfigured('cheap', { plan: 'free' }),
      monitorConfigured('cheap', 41),
      check('cheap', 41, '2026-11-22T12:00:00Z', 'up', 100),
      pageConfigured('mid', { plan: 'pro' }),
      monitorConfigured('mid', 51, { name: 'Shop' }),
      check('mid', 51, '2026-11-22T11:59:00Z', 'degraded', 250),
      pageConfigured('brand', { custom_domain: 'status.brand.example' }),
      monitorConfigured('brand', 61, { name: 'Resolver', type: 'dns', impact: 'major' }),
      check('brand', 61, '2026-11-22T12:00:00Z', 'down', 0),
    );
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    // Every endpoint is tried with wrong tokens here; their throttling is tested in tokenThrottle.test.ts.
    const tokenThrottle = { maxFailures: 1000, windowMs: 60_000 };
    const log = pino({ level: 'silent' });
    api = request(
      buildApp({ redis: env.redis, prefix: env.prefix, clock: env.now, config, log, tokenThrottle }),
    );
  });
  afterAll(() => env.close());

  describe('a private page', () => {
    const vault = pageEndpoints('vault', 21);

    it.each([
      ['without a token', (path: string) => path],
      ['with a wrong token', (path: string) => withToken(path, 'wrong-token-0123456789abcdef')],
      ['with an empty token', (path: string) => withToken(path, '')],
      ['with the token repeated', (path: string) => withToken(withToken(path, TOKEN), TOKEN)],
    ])('refuses every endpoint %s', async (_case, tokenOf) => {
      for (const path of [...vault.charts, ...vault.lists, ...vault.embed])
        expect(await answer(tokenOf(path)), path).toEqual([401, { error: 'auth required' }, 'no-store']);
      // The page itself holds no data: it answers and asks the reader for the token.
      for (const path of vault.html) {
        const html = await get(tokenOf(path));
        expect([html.status, html.headers['cache-control']], path).toEqual([200, 'private, no-store']);
        expect(html.text).toContain('data-private="true"');
        expect(html.text).not.toContain('Vault');
      }
      for (const path of [
        ...vault.availability,
        '/api/status-pages/vault/monitors/99/availability', // the token outranks the unknown monitor
        '/api/status-pages/vault/monitors/21/availability?period=2d', // and the bad period
      ])
        expect(await answer(tokenOf(path)), path).toEqual([403, { error: 'forbidden' }, 'no-store']);
      const badge = await svg(tokenOf('/badge/vault.svg'));
      expect([badge.status, badge.body, badge.headers['cache-control']]).toEqual([
        401,
        badgeSvg('unknown'),
        'no-store',
      ]);
    });

    it('answers every endpoint with the right token, privately', async () => {
      const ok = async (path: string) => {
        const res = await get(withToken(path, TOKEN));
        expect([res.status, res.headers['cache-control']], path).toEqual([200, 'private, no-store']);
        return res.body as unknown;
      };
      const minute = [{ minute: '2026-11-22T12:00:00Z', response_time: 80, status: 'up' }];
      expect(await ok('/api/status/vault/charts')).toEqual({
        monitors: [
          {
            id: 21,
            name: 'Vault API',
            state: 'up',
            avg_response_time_today: 80,
            hourly_data: [{ hour: 12, avg_response: 80, uptime: 100 }], // holds a check: observed or not, 100
            minute_data: minute,
            yesterday_hourly_data: [],
          },
        ],
        overall: 'operational', // an open incident does not change the overall status
        // Made at 12:00:00 (the minute's start; no event is later): nothing observed after the
        // first check yet, so no day has data.
        globalDaily: [],
        timestamp: Date.parse('2026-11-22T12:00:00Z') / 1000,
      });
      expect(await ok('/api/status-page/vault/minute-data')).toEqual({
        monitors: [{ id: 21, minute_data: minute }],
      });
      const incV = {
        id: 'inc-v',
        title: 'Slow vault',
        state: 'investigating', // the default opening state
        started_at: '2026-11-22T11:00:00Z',
        components: [],
        updates: [{ status: 'investigating', message: 'Slow.', created_at: '2026-11-22T11:00:00Z' }],
      };
      expect(await ok('/api/status-pages/vault/incidents')).toEqual({
        incidents: [incV],
        page: 1,
        page_size: 20,
        total_pages: 1,
        total_items: 1,
      });
      expect(await ok('/api/status-pages/vault/incidents/filter?month=2026-11')).toEqual({
        incidents: [incV],
        month: '2026-11',
        total_items: 1,
      });
      expect(await ok('/api/status-pages/vault/incidents/daily-counts?month=2026-11')).toEqual(
        zeroMonth('2026-11', 30, { '2026-11-22': 1 }),
      );
      expect(await ok('/api/status-pages/vault/maintenances')).toEqual({
        maintenances: [],
        page: 1,
        page_size: 20,
        total_pages: 0,
        total_items: 0,
      });
      expect(await ok('/api/status-pages/vault/maintenances/filter?month=2026-11')).toEqual({
        maintenances: [],
        month: '2026-11',
        total_items: 0,
      });
      expect(await ok('/api/status-pages/vault/maintenances/daily-counts?month=2026-11')).toEqual(
        zeroMonth('2026-11', 30),
      );
      expect(await ok('/api/status-pages/vault/monitors/21/availability?period=24h')).toEqual({
        monitor_id: 21,
        monitor_name: 'Vault API',
        period: '24h',
        availability: {
          uptime_percentage: 100,
          downtime_seconds: 0,
          total_seconds: 86400,
          mtbf_seconds: 86400, // no failure: total − downtime
          mttr_seconds: 0,
          incident_count: 0,
        },
        daily_breakdown: [
          { date: '2026-11-22', uptime_percentage: 100, downtime_seconds: 0 },
          { date: '2026-11-21', uptime_percentage: 100, downtime_seconds: 0 },
        ],
      });
      expect(await ok('/api/embed/status?slug=vault&inc=1&rtm=2&upd=2')).toEqual({
        page: 'vault',
        page_url: 'http://status.test/s/vault',
        overall: 'operational',
        updated: '2026-11-22T12:00:00Z', // the check; the incident (11:00) is older
        incidents: [
          {
            id: 'inc-v',
            title: 'Slow vault',
            state: 'investigating',
            started: '2026-11-22T11:00:00Z',
            component: '', // no components
          },
        ],
        rtm: [80, 80], // 11:59 empty (leading → first value), 12:00 80
        upd: [100, 100], // 11-21 no data → 100; 11-22 up
        dns_only: false,
      });
      expect(await ok('/api/embed/markdown?slug=vault')).toEqual({
        status_page_url: 'http://status.test/s/vault',
        badge_markdown: '[![Status](http://status.test/badge/vault.svg)](http://status.test/s/vault)',
        badge_html:
          '<a href="http://status.test/s/vault"><img alt="Status" src="http://status.test/badge/vault.svg"></a>',
        widget_script: `<script src="${SCRIPT}" data-slug="vault" data-theme="auto" async></script>`,
        widget_html:
          `<div class="status-widget"><script src="${SCRIPT}" data-slug="vault" data-theme="auto"` +
          ` data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>`,
        minimal_md: '**Operational** · [View status page](http://status.test/s/vault)',
      });
      const html = await get(withToken('/s/vault', TOKEN));
      expect([html.status, html.headers['cache-control']]).toEqual([200, 'private, no-store']);
      expect(html.text).toContain('<title>Private status page</title>');
      const badge = await svg(withToken('/badge/vault.svg', TOKEN));
      expect([badge.status, badge.body, badge.headers['cache-control']]).toEqual([
        200,
        badgeSvg('operational'),
        'private, no-store',
      ]);
    });

    it('still checks the monitor and the period after the token', async () => {
      expect(await answer(withToken('/api/status-pages/vault/monitors/99/availability', TOKEN))).toEqual([
        404,
        { error: 'not found' },
        'no-store',
      ]);
      expect(
        await answer(withToken('/api/status-pages/vault/monitors/21/availability?period=2d', TOKEN)),
      ).toEqual([400, { error: 'invalid period' }, 'no-store']);
    });
  });

  describe('a blocked page', () => {
    it('answers 403 status page is blocked on charts and minute-data, 404 not found elsewhere', async () => {
      const shut = pageEndpoints('shut', 31);
      for (const path of shut.charts)
        expect(await answer(path), path).toEqual([403, { error: 'status page is blocked' }, 'no-store']);
      for (const path of [...shut.lists, ...shut.embed, ...shut.availability])
        expect(await answer(path), path).toEqual([404, { error: 'not found' }, 'no-store']);
      expect(await notFoundPage('/s/shut')).toEqual([404, 'text/html; charset=utf-8', 'no-store', true]);
      const badge = await svg('/badge/shut.svg');
      expect([badge.status, badge.body]).toEqual([404, badgeSvg('unknown')]);
    });
  });

  describe.each([
    ['a deleted page', 'gone', 71],
    ['an unknown page', 'nope', 1],
  ])('%s', (_case, slug, monitorId) => {
    it('answers 404 everywhere, "status page not found" on charts and minute-data', async () => {
      const page = pageEndpoints(slug, monitorId);
      for (const path of page.charts)
        expect(await answer(path), path).toEqual([404, { error: 'status page not found' }, 'no-store']);
      for (const path of [...page.lists, ...page.embed, ...page.availability])
        expect(await answer(path), path).toEqual([404, { error: 'not found' }, 'no-store']);
      expect(await notFoundPage(`/s/${slug}`)).toEqual([404, 'text/html; charset=utf-8', 'no-store', true]);
      for (const path of [
        `/api/embed/status?slug=${slug}&inc=1&rtm=5&upd=3`,
        `/api/status-pages/${slug}/incidents?page=0`, // the page outranks the parameters
      ])
        expect(await answer(path), path).toEqual([404, { error: 'not found' }, 'no-store']);
      const badge = await svg(`/badge/${slug}.svg`);
      expect([badge.status, badge.body]).toEqual([404, badgeSvg('unknown')]);
    });
  });

  describe('a free page', () => {
    it('has no embeds and no snippets, but its charts are public', async () => {
      for (const path of ['/api/embed/status?slug=cheap', '/api/embed/status?slug=cheap&inc=1&rtm=5&upd=3'])
        expect(await answer(path), path).toEqual([
          403,
          { error: 'embeds not available in your plan' },
          'no-store',
        ]);
      expect(await answer('/api/embed/markdown?slug=cheap')).toEqual([
        403,
        { error: 'Markdown API requires Growth plan or higher' },
        'no-store',
      ]);
      const badge = await svg('/badge/cheap.svg');
      expect([badge.status, badge.body]).toEqual([403, badgeSvg('unknown')]);
      expect(await answer('/api/status/cheap/charts')).toEqual([
        200,
        {
          monitors: [
            {
              id: 41,
              name: 'Monitor 41',
              state: 'up',
              avg_response_time_today: 100,
              hourly_data: [{ hour: 12, avg_response: 100, uptime: 100 }],
              minute_data: [{ minute: '2026-11-22T12:00:00Z', response_time: 100, status: 'up' }],
              yesterday_hourly_data: [],
            },
          ],
          overall: 'operational',
          globalDaily: [], // at 12:00:00, as above
          timestamp: Date.parse('2026-11-22T12:00:00Z') / 1000,
        },
        'no-store',
      ]);
    });
  });

  describe('a pro page', () => {
    it('gets the basic embed status', async () => {
      expect(await answer('/api/embed/status?slug=mid')).toEqual([
        200,
        {
          page: 'mid',
          page_url: 'http://status.test/s/mid',
          overall: 'degraded_performance', // its only monitor (impact partial) is degraded
          updated: '2026-11-22T11:59:00Z',
          incidents: [],
          dns_only: false,
        },
        'public, max-age=15, stale-if-error=86400',
      ]);
      const badge = await svg('/badge/mid.svg');
      expect([badge.status, badge.body]).toEqual([200, badgeSvg('degraded_performance')]);
      expect(badge.body).toContain('fill="#dfb317"');
    });

    it.each(['inc=1', 'rtm=5', 'upd=3', 'inc=1&rtm=5&upd=3', 'rtm=999'])(
      'answers 403 for %s, and has no snippets',
      async (query) => {
        expect(await answer(`/api/embed/status?slug=mid&${query}`)).toEqual([
          403,
          { error: 'incidents and sparklines require Growth plan or higher' },
          'no-store',
        ]);
        expect(await answer('/api/embed/markdown?slug=mid')).toEqual([
          403,
          { error: 'Markdown API requires Growth plan or higher' },
          'no-store',
        ]);
      },
    );
  });

  describe('a page with a custom domain', () => {
    it('links to https://{domain} in the snippets and the embed status', async () => {
      expect(await answer('/api/embed/markdown?slug=brand')).toEqual([
        200,
        {
          status_page_url: 'https://status.brand.example',
          badge_markdown: '[![Status](http://status.test/badge/brand.svg)](https://status.brand.example)',
          badge_html:
            '<a href="https://status.brand.example"><img alt="Status" src="http://status.test/badge/brand.svg"></a>',
          widget_script: `<script src="${SCRIPT}" data-slug="brand" data-theme="auto" async></script>`,
          widget_html:
            `<div class="status-widget"><script src="${SCRIPT}" data-slug="brand" data-theme="auto"` +
            ` data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>`,
          minimal_md: '**Major Outage** · [View status page](https://status.brand.example)',
        },
        'public, max-age=300, stale-if-error=86400',
      ]);
      expect(await answer('/api/embed/status?slug=brand')).toEqual([
        200,
        {
          page: 'brand',
          page_url: 'https://status.brand.example',
          overall: 'major_outage', // every counted monitor is down
          updated: '2026-11-22T12:00:00Z',
          incidents: [],
          dns_only: true, // its only monitor is of type dns
        },
        'public, max-age=15, stale-if-error=86400',
      ]);
      const badge = await svg('/badge/brand.svg');
      expect([badge.status, badge.body]).toEqual([200, badgeSvg('major_outage')]);
      expect(badge.body).toContain('fill="#e05d44"');
    });
  });
});
