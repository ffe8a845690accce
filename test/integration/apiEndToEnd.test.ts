// The read API end to end on one Growth page: every event goes through the write path
// (appendEvents), every read model comes from the real projector, and every body below was
// computed by hand from the fixture (the arithmetic is in the comments). Nothing is seeded.
//
// now N = 2026-11-22T12:00:30Z. Answers assembled when read (charts, rtm, upd) are made at the
// instant I = 12:00:10, the page's latest event (later than the minute's start, 12:00:00): today
// so far 00:00:00–12:00:10 = 43210 s. Stored answers (availability) are rendered at N.
//
// Monitors of `acme` (display order: position, then those without one):
//   12 "API"     http, impact partial, position 1
//   11 "Website" http, impact major,   position 2
//   13 "DNS"     dns,  impact none,    no position
//
// Timelines (a status holds until the monitor's next check; the last one until now):
//   API     11-21 10:00 up 120 · 22:00 up 140 · 11-22 10:50 down 900 · 10:55 down 1000 ·
//           11:10 up 200 · 11:40 degraded 600 · 12:00 up 150
//           → one failure 10:50–11:10 (1200 s) across the 11:00 hour boundary.
//   Website 11-20 00:00 up 300 · 06:00 down 5000 · 06:30 up 310 · 11-22 11:30 up 320 ·
//           12:00 up 330, and LATE (appended after a first projection): 11:45 down 5000
//           → failures 11-20 06:00–06:30 (1800 s) and 11-22 11:45–12:00 (900 s).
//   DNS     11-22 11:05:00 up 20 · 11:05:30 up 30 · 11:57:30 up 35 · 12:00:10 down 40
//           → a failure open since 12:00:10 (20 s at N, none yet at I).
//
// Maintenances: m-done (completed), m-now 11:30–12:15 today (in progress at N), m-next
// 11-30 22:00 → 12-01 02:00 (scheduled, spans the month boundary), m-cancel (cancelled).
// Overall at N: Website and API up (DNS has impact none) → operational, and m-now is in
// progress → under_maintenance. The clock then moves past 12:15 with no new event.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { badgeSvg } from '../../src/embed/badgeSvg.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';

const N = '2026-11-22T12:00:30Z';
const AFTER = '2026-11-22T12:15:30Z'; // 30 s after m-now's scheduled_end

const ev = (type: string, at: string, data: object) => ({ type, page: 'acme', at, data });

// ---------------------------------------------------------------- expected resources

const update = (status: string, message: string, created_at: string) => ({ status, message, created_at });

const incApi = {
  id: 'inc-api',
  title: 'API errors',
  state: 'identified', // state of the latest update (11:15)
  started_at: '2026-11-22T10:52:00Z',
  components: ['API', 'Website'],
  updates: [
    update('investigating', 'Elevated error rates.', '2026-11-22T10:52:00Z'),
    update('identified', 'A bad deploy; rolling back.', '2026-11-22T11:15:00Z'),
  ],
}; // active: no resolved_at
const incDb = {
  id: 'inc-db',
  title: 'Database latency (EU)', // renamed by the 06:10 update
  state: 'resolved',
  started_at: '2026-11-20T06:00:00Z',
  resolved_at: '2026-11-20T06:40:00Z',
  components: ['Database'],
  // The monitoring update (06:20) reached the log after the resolution (06:40): updates are
  // still ordered by created_at, and the latest (06:40, resolved) decides state and resolved_at.
  updates: [
    update('investigating', 'Queries are slow.', '2026-11-20T06:00:00Z'),
    update('identified', 'An index rebuild is running.', '2026-11-20T06:10:00Z'),
    update('monitoring', 'Latency is back to normal.', '2026-11-20T06:20:00Z'),
    update('resolved', 'Resolved.', '2026-11-20T06:40:00Z'),
  ],
};
const incOct = {
  id: 'inc-oct',
  title: 'Login failures',
  state: 'resolved',
  started_at: '2026-10-14T09:00:00Z',
  resolved_at: '2026-10-14T10:00:00Z',
  components: ['Login'],
  updates: [
    update('identified', 'Users cannot log in.', '2026-10-14T09:00:00Z'), // opened as identified
    update('resolved', 'Fixed.', '2026-10-14T10:00:00Z'),
  ],
};

const mNext = {
  id: 'm-next',
  title: 'Storage migration',
  description: 'Moving volumes to the new storage cluster.', // set by maintenance.updated
  status: 'scheduled', // N < 11-30 22:00
  scheduled_start: '2026-11-30T22:00:00Z',
  scheduled_end: '2026-12-01T02:00:00Z',
  components: [], // default
  created_at: '2026-11-21T09:00:00Z',
};
const mCancel = {
  id: 'm-cancel',
  title: 'CDN switch',
  description: 'Changing the CDN provider.',
  status: 'cancelled',
  scheduled_start: '2026-11-25T01:00:00Z',
  scheduled_end: '2026-11-25T03:00:00Z',
  components: ['Website'],
  created_at: '2026-11-19T00:00:00Z',
};
const mNow = {
  id: 'm-now',
  title: 'Network maintenance',
  description: 'Switching the core routers.',
  status: 'in_progress', // 11:30 ≤ N < 12:15, by the clock alone (no started event)
  scheduled_start: '2026-11-22T11:30:00Z',
  scheduled_end: '2026-11-22T12:15:00Z',
  components: ['API', 'Website'],
  created_at: '2026-11-20T00:00:00Z',
};
const mDone = {
  id: 'm-done',
  title: 'Database upgrade',
  description: 'Upgrading the primary database.',
  status: 'completed', // explicit maintenance.completed (and N ≥ end anyway)
  scheduled_start: '2026-11-18T02:00:00Z',
  scheduled_end: '2026-11-18T04:00:00Z',
  components: ['Database'],
  created_at: '2026-11-15T00:00:00Z',
};

/** The daily-counts body of a month: every day, zero included. */
const monthCounts = (month: string, days: number, nonZero: Record<string, number> = {}) => ({
  counts: Object.fromEntries(
    Array.from({ length: days }, (_, i) => {
      const date = `${month}-${String(i + 1).padStart(2, '0')}`;
      return [date, nonZero[date] ?? 0];
    }),
  ),
  start_date: `${month}-01`,
  end_date: `${month}-${String(days)}`,
});

/** daily_breakdown entries without downtime, newest first, for the dates from `newest` back to `oldest`. */
const cleanDays = (newest: string, oldest: string) => {
  const days: { date: string; uptime_percentage: number; downtime_seconds: number }[] = [];
  for (let d = Date.parse(`${newest}T00:00:00Z`); d >= Date.parse(`${oldest}T00:00:00Z`); d -= 86_400_000)
    days.push({ date: new Date(d).toISOString().slice(0, 10), uptime_percentage: 100, downtime_seconds: 0 });
  return days;
};

// ---------------------------------------------------------------- expected figures at N

const apiMonitor = {
  id: 12,
  name: 'API',
  state: 'up', // latest check 12:00 up
  avg_response_time_today: 570, // (900 + 1000 + 200 + 600 + 150) / 5 = 2850 / 5
  hourly_data: [
    // 10:00–11:00: down 10:50–11:00 = 600 s → 100 × 3000 / 3600 = 83.333; (900 + 1000) / 2
    { hour: 10, avg_response: 950, uptime: 83.333 },
    // 11:00–12:00: down 11:00–11:10 = 600 s → 83.333; (200 + 600) / 2
    { hour: 11, avg_response: 400, uptime: 83.333 },
    // 12:00:00–12:00:30 observed, up
    { hour: 12, avg_response: 150, uptime: 100 },
  ],
  // The 60 minutes 11:01–12:00; 10:50 and 10:55 are older.
  minute_data: [
    { minute: '2026-11-22T11:10:00Z', response_time: 200, status: 'up' },
    { minute: '2026-11-22T11:40:00Z', response_time: 600, status: 'degraded' },
    { minute: '2026-11-22T12:00:00Z', response_time: 150, status: 'up' },
  ],
  yesterday_hourly_data: [
    { hour: 10, avg_response: 120, uptime: 100 }, // observed from the first check, 10:00
    { hour: 22, avg_response: 140, uptime: 100 },
  ],
};
const websiteMonitor = {
  id: 11,
  name: 'Website',
  state: 'up',
  avg_response_time_today: 1883, // (320 + 5000 + 330) / 3 = 1883.33
  hourly_data: [
    // the late 11:45 check counts: (320 + 5000) / 2; down 11:45–12:00 = 900 s → 100 × 2700 / 3600
    { hour: 11, avg_response: 2660, uptime: 75 },
    { hour: 12, avg_response: 330, uptime: 100 },
  ],
  minute_data: [
    { minute: '2026-11-22T11:30:00Z', response_time: 320, status: 'up' },
    { minute: '2026-11-22T11:45:00Z', response_time: 5000, status: 'down' },
    { minute: '2026-11-22T12:00:00Z', response_time: 330, status: 'up' },
  ],
  yesterday_hourly_data: [], // no check on 11-21 (the 11-20 06:30 up still holds, but no point)
};
const dnsMonitor = {
  id: 13,
  name: 'DNS',
  state: 'down', // latest check 12:00:10 down (impact none: ignored by overall)
  avg_response_time_today: 31, // (20 + 30 + 35 + 40) / 4 = 31.25
  hourly_data: [
    // observed 11:05–12:00, up; (20 + 30 + 35) / 3 = 28.33
    { hour: 11, avg_response: 28, uptime: 100 },
    // observed 12:00:00–12:00:10 (I) = 10 s, down from 12:00:10: none yet → 100
    { hour: 12, avg_response: 40, uptime: 100 },
  ],
  minute_data: [
    { minute: '2026-11-22T11:05:00Z', response_time: 25, status: 'up' }, // (20 + 30) / 2
    { minute: '2026-11-22T11:57:00Z', response_time: 35, status: 'up' },
    { minute: '2026-11-22T12:00:00Z', response_time: 40, status: 'down' },
  ],
  yesterday_hourly_data: [],
};

// globalDaily / upd: mean of the per-monitor day figures of the monitors with data that day.
//   11-22 (observed up to I): Website 100 × (43210 − 900) / 43210 = 97.917149
//                             API     100 × (43210 − 1200) / 43210 = 97.222865
//                             DNS     100 (observed 11:05–12:00:10, down from 12:00:10)
//                             mean = 295.140014 / 3 = 98.380005 → 98.38
//   11-21: Website 100 (whole day, up), API 100 (from 10:00, up), DNS no data yet → 100
//   11-20: Website 100 × (86400 − 1800) / 86400 = 97.917; API and DNS no data yet → 97.917
//   11-19 and before: no monitor has data → not listed (upd: 100)
const TODAY_AT_N = 98.38;
const globalDailyAtN = [
  { date: '2026-11-22', uptime: TODAY_AT_N },
  { date: '2026-11-21', uptime: 100 },
  { date: '2026-11-20', uptime: 97.917 },
];

const chartsAtN = {
  monitors: [apiMonitor, websiteMonitor, dnsMonitor],
  overall: 'under_maintenance',
  globalDaily: globalDailyAtN,
  timestamp: Date.parse('2026-11-22T12:00:10Z') / 1000, // I: 1795348810
};

const embedBase = {
  page: 'acme',
  page_url: 'http://status.test/s/acme', // {base_url}/s/{slug}
  overall: 'under_maintenance',
  updated: '2026-11-22T12:00:10Z', // the latest `at` of the page's events: DNS's 12:00:10 check
};

describe('the read API end to end, on projected models only', () => {
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

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    await env.append(
      pageConfigured('acme', { title: 'Acme' }, '2026-10-01T00:00:00Z'),
      monitorConfigured(
        'acme',
        11,
        { name: 'Website', impact: 'major', position: 2 },
        '2026-10-01T00:00:00Z',
      ),
      monitorConfigured('acme', 12, { name: 'API', impact: 'partial', position: 1 }, '2026-10-01T00:00:00Z'),
      monitorConfigured('acme', 13, { name: 'DNS', type: 'dns', impact: 'none' }, '2026-10-01T00:00:00Z'),
      // incidents
      ev('incident.opened', '2026-10-14T09:00:00Z', {
        incident_id: 'inc-oct',
        title: 'Login failures',
        message: 'Users cannot log in.',
        state: 'identified',
        components: ['Login'],
      }),
      ev('incident.updated', '2026-10-14T10:00:00Z', {
        incident_id: 'inc-oct',
        state: 'resolved',
        message: 'Fixed.',
      }),
      ev('incident.opened', '2026-11-20T06:00:00Z', {
        incident_id: 'inc-db',
        title: 'Database latency',
        message: 'Queries are slow.',
        components: ['Database'],
      }),
      ev('incident.updated', '2026-11-20T06:10:00Z', {
        incident_id: 'inc-db',
        state: 'identified',
        message: 'An index rebuild is running.',
        title: 'Database latency (EU)',
      }),
      ev('incident.updated', '2026-11-20T06:40:00Z', {
        incident_id: 'inc-db',
        state: 'resolved',
        message: 'Resolved.',
      }),
      ev('incident.updated', '2026-11-20T06:20:00Z', {
        incident_id: 'inc-db',
        state: 'monitoring',
        message: 'Latency is back to normal.',
      }),
      // maintenances
      ev('maintenance.scheduled', '2026-11-15T00:00:00Z', {
        maintenance_id: 'm-done',
        title: 'Database upgrade',
        description: 'Upgrading the primary database.',
        scheduled_start: '2026-11-18T02:00:00Z',
        scheduled_end: '2026-11-18T04:00:00Z',
        components: ['Database'],
      }),
      ev('maintenance.started', '2026-11-18T02:00:00Z', { maintenance_id: 'm-done' }),
      ev('maintenance.completed', '2026-11-18T03:30:00Z', { maintenance_id: 'm-done' }),
      ev('maintenance.scheduled', '2026-11-19T00:00:00Z', {
        maintenance_id: 'm-cancel',
        title: 'CDN switch',
        description: 'Changing the CDN provider.',
        scheduled_start: '2026-11-25T01:00:00Z',
        scheduled_end: '2026-11-25T03:00:00Z',
        components: ['Website'],
      }),
      ev('maintenance.scheduled', '2026-11-20T00:00:00Z', {
        maintenance_id: 'm-now',
        title: 'Network maintenance',
        description: 'Switching the core routers.',
        scheduled_start: '2026-11-22T11:30:00Z',
        scheduled_end: '2026-11-22T12:15:00Z',
        components: ['API', 'Website'],
      }),
      ev('maintenance.scheduled', '2026-11-21T09:00:00Z', {
        maintenance_id: 'm-next',
        title: 'Storage migration',
        scheduled_start: '2026-11-30T22:00:00Z',
        scheduled_end: '2026-12-01T02:00:00Z',
      }),
      ev('maintenance.updated', '2026-11-21T09:30:00Z', {
        maintenance_id: 'm-next',
        description: 'Moving volumes to the new storage cluster.',
      }),
      ev('maintenance.cancelled', '2026-11-21T12:00:00Z', { maintenance_id: 'm-cancel' }),
      // checks
      check('acme', 11, '2026-11-20T00:00:00Z', 'up', 300),
      check('acme', 11, '2026-11-20T06:00:00Z', 'down', 5000),
      check('acme', 11, '2026-11-20T06:30:00Z', 'up', 310),
      check('acme', 12, '2026-11-21T10:00:00Z', 'up', 120),
      check('acme', 12, '2026-11-21T22:00:00Z', 'up', 140),
      check('acme', 12, '2026-11-22T10:50:00Z', 'down', 900),
      ev('incident.opened', '2026-11-22T10:52:00Z', {
        incident_id: 'inc-api',
        title: 'API errors',
        message: 'Elevated error rates.',
        components: ['API', 'Website'],
      }),
      check('acme', 12, '2026-11-22T10:55:00Z', 'down', 1000),
      check('acme', 13, '2026-11-22T11:05:00Z', 'up', 20),
      check('acme', 13, '2026-11-22T11:05:30Z', 'up', 30),
      check('acme', 12, '2026-11-22T11:10:00Z', 'up', 200),
      ev('incident.updated', '2026-11-22T11:15:00Z', {
        incident_id: 'inc-api',
        state: 'identified',
        message: 'A bad deploy; rolling back.',
      }),
      check('acme', 11, '2026-11-22T11:30:00Z', 'up', 320),
      check('acme', 12, '2026-11-22T11:40:00Z', 'degraded', 600),
      check('acme', 13, '2026-11-22T11:57:30Z', 'up', 35),
      check('acme', 11, '2026-11-22T12:00:00Z', 'up', 330),
      check('acme', 12, '2026-11-22T12:00:00Z', 'up', 150),
      check('acme', 13, '2026-11-22T12:00:10Z', 'down', 40),
    );
    await env.project();
    // A late check: 15 minutes older than Website's newest (12:00), arriving after it was projected.
    await env.append(check('acme', 11, '2026-11-22T11:45:00Z', 'down', 5000));
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    api = request(appOf(env, config));
  });
  afterAll(() => env.close());

  describe('incidents', () => {
    it('lists them newest first with the envelope (default paging)', async () => {
      const res = await get('/api/status-pages/acme/incidents');
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        200,
        'application/json; charset=utf-8',
        'public, max-age=30, stale-if-error=86400',
      ]);
      expect(res.body).toEqual({
        incidents: [incApi, incDb, incOct], // started_at 11-22, 11-20, 10-14
        page: 1,
        page_size: 20,
        total_pages: 1, // ceil(3 / 20)
        total_items: 3,
      });
    });

    it('pages with page_size 2: page 1, page 2 and a page past the end', async () => {
      // total_pages = ceil(3 / 2) = 2
      expect((await get('/api/status-pages/acme/incidents?page=1&page_size=2')).body).toEqual({
        incidents: [incApi, incDb],
        page: 1,
        page_size: 2,
        total_pages: 2,
        total_items: 3,
      });
      expect((await get('/api/status-pages/acme/incidents?page=2&page_size=2')).body).toEqual({
        incidents: [incOct],
        page: 2,
        page_size: 2,
        total_pages: 2,
        total_items: 3,
      });
      const past = await get('/api/status-pages/acme/incidents?page=3&page_size=2');
      expect([past.status, past.body]).toEqual([
        200,
        { incidents: [], page: 3, page_size: 2, total_pages: 2, total_items: 3 },
      ]);
    });

    it('filters by the month of started_at', async () => {
      expect((await get('/api/status-pages/acme/incidents/filter?month=2026-11')).body).toEqual({
        incidents: [incApi, incDb],
        month: '2026-11',
        total_items: 2,
      });
      expect((await get('/api/status-pages/acme/incidents/filter?month=2026-10')).body).toEqual({
        incidents: [incOct],
        month: '2026-10',
        total_items: 1,
      });
      expect((await get('/api/status-pages/acme/incidents/filter?month=2026-09')).body).toEqual({
        incidents: [],
        month: '2026-09',
        total_items: 0,
      });
    });

    it('counts them per UTC day of started_at; an empty month is all zeros', async () => {
      const nov = await get('/api/status-pages/acme/incidents/daily-counts?month=2026-11');
      expect(nov.headers['cache-control']).toBe('public, max-age=30, stale-if-error=86400');
      expect(nov.body).toEqual(monthCounts('2026-11', 30, { '2026-11-20': 1, '2026-11-22': 1 }));
      expect(Object.keys((nov.body as { counts: object }).counts)).toEqual(
        Object.keys(monthCounts('2026-11', 30).counts), // every day, keys ascending
      );
      expect((await get('/api/status-pages/acme/incidents/daily-counts?month=2026-10')).body).toEqual(
        monthCounts('2026-10', 31, { '2026-10-14': 1 }),
      );
      expect((await get('/api/status-pages/acme/incidents/daily-counts?month=2026-09')).body).toEqual(
        monthCounts('2026-09', 30),
      );
    });
  });

  describe('maintenances', () => {
    it('lists all of them by scheduled_start descending, cancelled included', async () => {
      const res = await get('/api/status-pages/acme/maintenances');
      expect([res.status, res.headers['cache-control']]).toEqual([
        200,
        'public, max-age=30, stale-if-error=86400',
      ]);
      const all = {
        maintenances: [mNext, mCancel, mNow, mDone], // 11-30, 11-25, 11-22, 11-18
        page: 1,
        page_size: 20,
        total_pages: 1,
        total_items: 4,
      };
      expect(res.body).toEqual(all);
      expect((await get('/api/status-pages/acme/maintenances?status=all')).body).toEqual(all);
      expect((await get('/api/status-pages/acme/maintenances?status=all&page=2&page_size=3')).body).toEqual({
        maintenances: [mDone],
        page: 2,
        page_size: 3,
        total_pages: 2, // ceil(4 / 3)
        total_items: 4,
      });
    });

    it.each([
      ['scheduled', [mNext]],
      ['in_progress', [mNow]],
      ['completed', [mDone]],
      ['cancelled', [mCancel]],
    ])('filters the list by status=%s', async (status, items) => {
      expect((await get(`/api/status-pages/acme/maintenances?status=${status}`)).body).toEqual({
        maintenances: items,
        page: 1,
        page_size: 20,
        total_pages: 1,
        total_items: 1,
      });
    });

    it('filters by month overlap: the window across the month boundary is in both months', async () => {
      expect((await get('/api/status-pages/acme/maintenances/filter?month=2026-11')).body).toEqual({
        maintenances: [mNext, mCancel, mNow, mDone], // any status
        month: '2026-11',
        total_items: 4,
      });
      expect((await get('/api/status-pages/acme/maintenances/filter?month=2026-12')).body).toEqual({
        maintenances: [mNext], // 12-01 00:00–02:00 of its window
        month: '2026-12',
        total_items: 1,
      });
      expect((await get('/api/status-pages/acme/maintenances/filter?month=2026-10')).body).toEqual({
        maintenances: [],
        month: '2026-10',
        total_items: 0,
      });
    });

    it('counts every day a non-cancelled window overlaps', async () => {
      // m-done 11-18, m-now 11-22, m-next 11-30 (and 12-01); m-cancel (11-25) is not counted.
      expect((await get('/api/status-pages/acme/maintenances/daily-counts?month=2026-11')).body).toEqual(
        monthCounts('2026-11', 30, { '2026-11-18': 1, '2026-11-22': 1, '2026-11-30': 1 }),
      );
      expect((await get('/api/status-pages/acme/maintenances/daily-counts?month=2026-12')).body).toEqual(
        monthCounts('2026-12', 31, { '2026-12-01': 1 }),
      );
      expect((await get('/api/status-pages/acme/maintenances/daily-counts?month=2027-02')).body).toEqual(
        monthCounts('2027-02', 28),
      );
    });
  });

  describe('charts and minute data', () => {
    it('serves the whole charts response', async () => {
      const res = await get('/api/status/acme/charts');
      expect([res.status, res.headers['cache-control']]).toEqual([200, 'no-store']);
      expect(res.body).toEqual(chartsAtN);
      const etag = res.headers['etag'] as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get('/api/status/acme/charts').set('If-None-Match', etag);
      expect([again.status, again.text, again.headers['etag']]).toEqual([304, '', etag]);
    });

    it('serves minute data with the same minute rule and order', async () => {
      const res = await get('/api/status-page/acme/minute-data');
      expect([res.status, res.headers['cache-control']]).toEqual([200, 'no-store']);
      expect(res.body).toEqual({
        monitors: [
          { id: 12, minute_data: apiMonitor.minute_data },
          { id: 11, minute_data: websiteMonitor.minute_data },
          { id: 13, minute_data: dnsMonitor.minute_data },
        ],
      });
    });
  });

  describe('availability', () => {
    it('answers 24h for API: one failure across an hour boundary', async () => {
      const res = await get('/api/status-pages/acme/monitors/12/availability?period=24h');
      expect([res.status, res.headers['cache-control']]).toEqual([
        200,
        'public, max-age=30, stale-if-error=86400',
      ]);
      expect(res.body).toEqual({
        monitor_id: 12,
        monitor_name: 'API',
        period: '24h',
        availability: {
          uptime_percentage: 98.611, // 100 × (86400 − 1200) / 86400 = 98.6111
          downtime_seconds: 1200, // 10:50–11:10
          total_seconds: 86400,
          mtbf_seconds: 85200, // (86400 − 1200) / 1
          mttr_seconds: 1200, // 1200 / 1
          incident_count: 1,
        },
        daily_breakdown: [
          // 11-22 00:00–12:00:30 = 43230 s: 100 × (43230 − 1200) / 43230 = 97.22415
          { date: '2026-11-22', uptime_percentage: 97.224, downtime_seconds: 1200 },
          // 11-21 12:00:30–24:00 = 43170 s, no downtime
          { date: '2026-11-21', uptime_percentage: 100, downtime_seconds: 0 },
        ],
      });
    });

    it('answers 30d for API, with 31 days in the breakdown', async () => {
      // Period [10-23 12:00:30, N): days 10-23 (partial) … 11-22 (partial) = 31 entries.
      expect((await get('/api/status-pages/acme/monitors/12/availability?period=30d')).body).toEqual({
        monitor_id: 12,
        monitor_name: 'API',
        period: '30d',
        availability: {
          uptime_percentage: 99.954, // 100 × (2592000 − 1200) / 2592000 = 99.95370
          downtime_seconds: 1200,
          total_seconds: 2592000, // before the first check counts as up
          mtbf_seconds: 2590800,
          mttr_seconds: 1200,
          incident_count: 1,
        },
        daily_breakdown: [
          { date: '2026-11-22', uptime_percentage: 97.224, downtime_seconds: 1200 },
          ...cleanDays('2026-11-21', '2026-10-23'),
        ],
      });
      // The default period is 30d.
      expect(
        ((await get('/api/status-pages/acme/monitors/12/availability')).body as { period: string }).period,
      ).toBe('30d');
    });

    it('answers 30d for Website, whose second failure came from a late check', async () => {
      expect((await get('/api/status-pages/acme/monitors/11/availability?period=30d')).body).toEqual({
        monitor_id: 11,
        monitor_name: 'Website',
        period: '30d',
        availability: {
          uptime_percentage: 99.896, // 100 × (2592000 − 2700) / 2592000 = 99.89583
          downtime_seconds: 2700, // 1800 (11-20 06:00–06:30) + 900 (11-22 11:45–12:00)
          total_seconds: 2592000,
          mtbf_seconds: 1294650, // 2589300 / 2
          mttr_seconds: 1350, // 2700 / 2
          incident_count: 2,
        },
        daily_breakdown: [
          // 100 × (43230 − 900) / 43230 = 97.91811
          { date: '2026-11-22', uptime_percentage: 97.918, downtime_seconds: 900 },
          { date: '2026-11-21', uptime_percentage: 100, downtime_seconds: 0 },
          // 100 × (86400 − 1800) / 86400 = 97.91667
          { date: '2026-11-20', uptime_percentage: 97.917, downtime_seconds: 1800 },
          ...cleanDays('2026-11-19', '2026-10-23'),
        ],
      });
    });

    it('answers 24h for DNS, whose failure is still open', async () => {
      expect((await get('/api/status-pages/acme/monitors/13/availability?period=24h')).body).toEqual({
        monitor_id: 13,
        monitor_name: 'DNS',
        period: '24h',
        availability: {
          uptime_percentage: 99.977, // 100 × (86400 − 20) / 86400 = 99.97685
          downtime_seconds: 20, // 12:00:10 → N
          total_seconds: 86400,
          mtbf_seconds: 86380,
          mttr_seconds: 20,
          incident_count: 1, // the open failure overlaps the period
        },
        daily_breakdown: [
          // 100 × (43230 − 20) / 43230 = 99.95374
          { date: '2026-11-22', uptime_percentage: 99.954, downtime_seconds: 20 },
          { date: '2026-11-21', uptime_percentage: 100, downtime_seconds: 0 },
        ],
      });
    });

    it.each(['99', '21', 'abc', '012'])('answers 404 not found for monitor %s of acme', async (id) => {
      const res = await get(`/api/status-pages/acme/monitors/${id}/availability?period=24h`);
      expect([res.status, res.body, res.headers['cache-control']]).toEqual([
        404,
        { error: 'not found' },
        'no-store',
      ]);
    });

    it('answers 400 invalid period for a known monitor', async () => {
      const res = await get('/api/status-pages/acme/monitors/12/availability?period=2d');
      expect([res.status, res.body]).toEqual([400, { error: 'invalid period' }]);
    });
  });

  describe('embed status', () => {
    it('answers the basic status, fields in spec order', async () => {
      const res = await get('/api/embed/status?slug=acme');
      expect([res.status, res.headers['cache-control']]).toEqual([
        200,
        'public, max-age=15, stale-if-error=86400',
      ]);
      expect(res.body).toEqual({ ...embedBase, incidents: [], dns_only: false });
      expect(Object.keys(res.body as object)).toEqual([
        'page',
        'page_url',
        'overall',
        'updated',
        'incidents',
        'dns_only',
      ]);
    });

    it('adds the active incidents with inc=1', async () => {
      expect((await get('/api/embed/status?slug=acme&inc=1')).body).toEqual({
        ...embedBase,
        incidents: [
          {
            id: 'inc-api',
            title: 'API errors',
            state: 'identified',
            started: '2026-11-22T10:52:00Z',
            component: 'API, Website', // components joined with ", "
          },
        ], // inc-db and inc-oct are resolved
        dns_only: false,
      });
    });

    it('rtm=5: leading empty minutes take the first value, later ones carry the previous forward', async () => {
      // Minutes 11:56–12:00 of all the page's checks:
      //   11:56 empty → first value in the window (35); 11:57 DNS 35; 11:58, 11:59 empty → 35;
      //   12:00 (Website 330 + API 150 + DNS 40) / 3 = 173.33 → 173
      expect((await get('/api/embed/status?slug=acme&rtm=5')).body).toEqual({
        ...embedBase,
        incidents: [],
        rtm: [35, 35, 35, 35, 173],
        dns_only: false,
      });
    });

    it('upd=3: the page figure of the last 3 days, oldest first', async () => {
      expect((await get('/api/embed/status?slug=acme&upd=3')).body).toEqual({
        ...embedBase,
        incidents: [],
        upd: [97.917, 100, TODAY_AT_N], // 11-20, 11-21, 11-22 as in globalDaily
        dns_only: false,
      });
    });

    it('answers everything together: inc=1, rtm=60 and upd=30', async () => {
      const res = await get('/api/embed/status?slug=acme&inc=1&rtm=60&upd=30');
      expect(res.body).toEqual({
        ...embedBase,
        incidents: [
          {
            id: 'inc-api',
            title: 'API errors',
            state: 'identified',
            started: '2026-11-22T10:52:00Z',
            component: 'API, Website',
          },
        ],
        // Minutes 11:01–12:00 (60 values):
        //   11:01–11:04 leading → 25 (the first value, DNS 11:05 (20 + 30) / 2); 11:05–11:09: 25 → 9
        //   11:10 API 200, carried to 11:29 → 20
        //   11:30 Website 320, carried to 11:39 → 10
        //   11:40 API 600, carried to 11:44 → 5
        //   11:45 Website 5000 (the late check), carried to 11:56 → 12
        //   11:57 DNS 35, carried to 11:59 → 3
        //   12:00 173 → 1                                   (9 + 20 + 10 + 5 + 12 + 3 + 1 = 60)
        rtm: [
          ...Array<number>(9).fill(25),
          ...Array<number>(20).fill(200),
          ...Array<number>(10).fill(320),
          ...Array<number>(5).fill(600),
          ...Array<number>(12).fill(5000),
          ...Array<number>(3).fill(35),
          173,
        ],
        // 10-24 … 11-19 (27 days) without data → 100; then 11-20, 11-21, 11-22
        upd: [...Array<number>(27).fill(100), 97.917, 100, TODAY_AT_N],
        dns_only: false,
      });
      expect(Object.keys(res.body as object)).toEqual([
        'page',
        'page_url',
        'overall',
        'updated',
        'incidents',
        'rtm',
        'upd',
        'dns_only',
      ]);
    });
  });

  describe('snippets, badge, status page', () => {
    const script = 'http://status.test/static/embed/v1/status.js';
    const snippetsAtN = {
      status_page_url: 'http://status.test/s/acme',
      badge_markdown: '[![Status](http://status.test/badge/acme.svg)](http://status.test/s/acme)',
      badge_html:
        '<a href="http://status.test/s/acme"><img alt="Status" src="http://status.test/badge/acme.svg"></a>',
      widget_script: `<script src="${script}" data-slug="acme" data-theme="auto" async></script>`,
      widget_html:
        `<div class="status-widget"><script src="${script}" data-slug="acme" data-theme="auto"` +
        ` data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>`,
      minimal_md: '**Under Maintenance** · [View status page](http://status.test/s/acme)',
    };

    it('answers the snippets', async () => {
      const res = await get('/api/embed/markdown?slug=acme');
      expect([res.status, res.headers['cache-control']]).toEqual([
        200,
        'public, max-age=300, stale-if-error=86400',
      ]);
      expect(res.body).toEqual(snippetsAtN);
    });

    it('draws the badge in the colour of the overall status (under maintenance: blue)', async () => {
      const res = await svg('/badge/acme.svg');
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        200,
        'image/svg+xml; charset=utf-8',
        'public, max-age=300, stale-if-error=86400',
      ]);
      expect(res.body).toBe(badgeSvg('under_maintenance'));
      expect(res.body).toContain('fill="#007ec6"');
      expect(res.body).toContain('<title>Status: Under Maintenance</title>');
    });

    it('serves /s/acme: the status page document with the page title', async () => {
      const res = await get('/s/acme');
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        200,
        'text/html; charset=utf-8',
        'public, max-age=60, stale-if-error=86400',
      ]);
      expect(res.text).toContain('<title>Acme status</title>');
      expect(res.text).toContain('<h1 id="page-title">Acme</h1>');
      const widget = await get('/static/embed/v1/status.js');
      expect([widget.status, widget.headers['content-type']]).toEqual([
        200,
        'text/javascript; charset=utf-8',
      ]);
    });
  });

  // Last: moves the clock. Nothing is appended; only env.setNow + env.project().
  describe('when the clock passes the end of the maintenance', () => {
    let before: { charts: string; embed: string; maintenances: string; snippets: string; badge: string };

    it('changes statuses, overall, figures and ETags with no new event', async () => {
      const etag = async (path: string) => (await get(path)).headers['etag'] as string;
      before = {
        charts: await etag('/api/status/acme/charts'),
        embed: await etag('/api/embed/status?slug=acme'),
        maintenances: await etag('/api/status-pages/acme/maintenances'),
        snippets: await etag('/api/embed/markdown?slug=acme'),
        badge: await etag('/badge/acme.svg'),
      };
      // Still the same content: the ETags are stable and answer 304.
      expect((await get('/api/embed/status?slug=acme').set('If-None-Match', before.embed)).status).toBe(304);

      env.setNow(AFTER);
      expect(await env.project()).toBe(0); // no event: only the clock moved

      // m-now: N ≥ scheduled_end → completed.
      const mNowDone = { ...mNow, status: 'completed' };
      const list = await get('/api/status-pages/acme/maintenances');
      expect(list.body).toEqual({
        maintenances: [mNext, mCancel, mNowDone, mDone],
        page: 1,
        page_size: 20,
        total_pages: 1,
        total_items: 4,
      });
      expect(list.headers['etag']).not.toBe(before.maintenances);
      expect((await get('/api/status-pages/acme/maintenances?status=in_progress')).body).toEqual({
        maintenances: [],
        page: 1,
        page_size: 20,
        total_pages: 0, // ceil(0 / 20)
        total_items: 0,
      });
      expect((await get('/api/status-pages/acme/maintenances?status=completed')).body).toEqual({
        maintenances: [mNowDone, mDone],
        page: 1,
        page_size: 20,
        total_pages: 1,
        total_items: 2,
      });
      expect(
        (await get('/api/status-pages/acme/maintenances?status=in_progress')).headers['cache-control'],
      ).toBe('public, max-age=30, stale-if-error=86400');

      // Charts asked at 12:15:30 are made at 12:15:00 (the minute's start; no later event):
      // today so far = 44100 s; minute window 11:16–12:15.
      //   globalDaily 11-22: Website 100 × (44100 − 900) / 44100 = 97.959184
      //                      API     100 × (44100 − 1200) / 44100 = 97.278912
      //                      DNS     100 × (4200 − 890) / 4200 = 78.809524 (11:05–12:15, down from 12:00:10)
      //                      mean = 274.047619 / 3 = 91.349206 → 91.349
      const charts = await get('/api/status/acme/charts');
      expect(charts.body).toEqual({
        monitors: [
          {
            ...apiMonitor,
            minute_data: apiMonitor.minute_data.slice(1), // 11:10 left the window
          },
          websiteMonitor, // 11:30, 11:45, 12:00 still inside; hour 12 observed 12:00–12:15:30, up
          {
            ...dnsMonitor,
            // hour 12: observed 900 s, down 890 s → 100 × 10 / 900 = 1.111
            hourly_data: [dnsMonitor.hourly_data[0], { hour: 12, avg_response: 40, uptime: 1.111 }],
            minute_data: dnsMonitor.minute_data.slice(1), // 11:05 left the window
          },
        ],
        overall: 'operational', // no maintenance in progress; DNS down has impact none
        globalDaily: [{ date: '2026-11-22', uptime: 91.349 }, ...globalDailyAtN.slice(1)],
        timestamp: Date.parse('2026-11-22T12:15:00Z') / 1000,
      });
      expect(charts.headers['etag']).not.toBe(before.charts);

      // Embed: overall operational, same `updated` (no new event); the old ETag no longer matches.
      const embed = await get('/api/embed/status?slug=acme');
      expect(embed.body).toEqual({ ...embedBase, overall: 'operational', incidents: [], dns_only: false });
      const newTag = embed.headers['etag'] as string;
      expect(newTag).not.toBe(before.embed);
      const stale = await get('/api/embed/status?slug=acme').set('If-None-Match', before.embed);
      expect(stale.status).toBe(200);
      expect(stale.body).toEqual(embed.body);
      const fresh = await get('/api/embed/status?slug=acme').set('If-None-Match', newTag);
      expect([fresh.status, fresh.text, fresh.headers['etag']]).toEqual([304, '', newTag]);
      // rtm=5 at 12:15: minutes 12:11–12:15 hold no check, and no earlier value is in the
      // window → zeros. upd=1: today's page figure.
      expect((await get('/api/embed/status?slug=acme&rtm=5&upd=1')).body).toEqual({
        ...embedBase,
        overall: 'operational',
        incidents: [],
        rtm: [0, 0, 0, 0, 0],
        upd: [91.349],
        dns_only: false,
      });

      // Snippets and badge follow the overall status.
      const snippets = await get('/api/embed/markdown?slug=acme');
      expect((snippets.body as { minimal_md: string }).minimal_md).toBe(
        '**Operational** · [View status page](http://status.test/s/acme)',
      );
      expect(snippets.headers['etag']).not.toBe(before.snippets);
      const badge = await svg('/badge/acme.svg');
      expect(badge.body).toBe(badgeSvg('operational'));
      expect(badge.body).toContain('fill="#4c1"');
      expect(badge.headers['etag']).not.toBe(before.badge);
    });
  });
});
