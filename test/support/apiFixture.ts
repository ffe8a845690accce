// The pages every API test reads: one public Growth page with everything, and one page per
// access case (private, blocked, deleted, free, pro), each with full models so that only the
// access rule can explain an error. Also builds the app on a fresh prefix.
import { Writable } from 'node:stream';
import type { Express } from 'express';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { HttpMetrics } from '../../src/http/httpMetrics.ts';
import { seedActive, seedPage, type SeedCheck, type SeedPage } from './seedReadModels.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from './testEnv.ts';

export const BASE_URL = 'https://status.example.com';
export const TOKEN = 'correct-horse-battery-staple';

const update = (status: string, message: string, created_at: string) => ({ status, message, created_at });
export const incidents = [
  {
    id: 'inc-3',
    title: 'API errors',
    state: 'identified',
    started_at: '2026-11-20T08:00:00Z',
    components: ['API', 'Web'],
    updates: [
      update('investigating', 'Looking', '2026-11-20T08:00:00Z'),
      update('identified', 'Found it', '2026-11-20T08:30:00Z'),
    ],
  },
  {
    id: 'inc-2',
    title: 'Slow dashboard',
    state: 'resolved',
    started_at: '2026-11-03T10:00:00Z',
    resolved_at: '2026-11-03T11:00:00Z',
    components: [],
    updates: [
      update('investigating', 'Slow', '2026-11-03T10:00:00Z'),
      update('resolved', 'Fixed', '2026-11-03T11:00:00Z'),
    ],
  },
  {
    id: 'inc-1',
    title: 'DNS outage',
    state: 'resolved',
    started_at: '2026-10-31T23:00:00Z',
    resolved_at: '2026-11-01T01:00:00Z',
    components: ['DNS'],
    updates: [
      update('investigating', 'Down', '2026-10-31T23:00:00Z'),
      update('resolved', 'Up', '2026-11-01T01:00:00Z'),
    ],
  },
];

const maintenance = (id: string, status: string, start: string, end: string) => ({
  id,
  title: `Maintenance ${id}`,
  description: 'Planned work',
  status,
  scheduled_start: start,
  scheduled_end: end,
  components: ['DB'],
  created_at: '2026-10-01T00:00:00Z',
});
export const maintenances = [
  maintenance('mnt-4', 'scheduled', '2026-12-01T02:00:00Z', '2026-12-01T04:00:00Z'),
  maintenance('mnt-3', 'in_progress', '2026-11-22T09:00:00Z', '2026-11-22T12:00:00Z'),
  maintenance('mnt-2', 'cancelled', '2026-11-10T00:00:00Z', '2026-11-10T02:00:00Z'),
  maintenance('mnt-1', 'completed', '2026-10-31T22:00:00Z', '2026-11-01T02:00:00Z'),
];

/** The instant the fixture's checks are projected at and the app assembles answers at. */
const FIXTURE_NOW = '2026-11-22T10:00:30Z';
export const fixtureClock = (): Date => new Date(FIXTURE_NOW);

const check = (at: string, status: SeedCheck['status'], responseTimeMs: number): SeedCheck => ({
  at,
  status,
  responseTimeMs,
});
/** Monitor "API": first checked yesterday at 11:30, down 450 s that day, up (once degraded) today. */
const apiChecks: SeedCheck[] = [
  check('2026-11-21T11:30:00Z', 'up', 100), // the first check: nothing before it is observed
  check('2026-11-21T11:45:00Z', 'down', 300), // a failure from 11:45:00…
  check('2026-11-21T11:52:30Z', 'up', 110), // …to 11:52:30: 450 s
  check('2026-11-21T20:00:00Z', 'up', 150),
  check('2026-11-22T06:30:00Z', 'up', 201),
  check('2026-11-22T09:57:10Z', 'degraded', 110),
  check('2026-11-22T09:59:10Z', 'up', 125),
  check('2026-11-22T09:59:30Z', 'up', 135), // the latest: the embed's `updated`
];

// The answers in FIXTURE_NOW's minute, by hand from decisions.md "Figures":
// - today's hours: 6 holds 201; 9 holds 110, 125, 135 → 370 ÷ 3 = 123.33 → 123; no down time → 100.
// - avg_response_time_today = (201 + 110 + 125 + 135) ÷ 4 = 571 ÷ 4 = 142.75 → 143.
// - yesterday's hours: 11 holds 100, 300, 110 → 510 ÷ 3 = 170, observed 11:30–12:00 (after the
//   first check) = 1800 s, down 450 s → 100 × (1 − 450 ÷ 1800) = 75; 20 holds 150, up → 100.
// - globalDaily, newest first: 2026-11-22 observed 00:00–10:00:30, no down time → 100;
//   2026-11-21 observed 11:30–24:00 = 45000 s, down 450 s → 100 × (1 − 450 ÷ 45000) = 99;
//   no day before the first check has data.
// - minute_data (09:01–10:00): 09:57 → 110, degraded (its worst); 09:59 → (125 + 135) ÷ 2 = 130, up.
// - timestamp: the instant is the minute's start, the latest event (09:59:30) being earlier:
//   2026-11-22T10:00:00Z is 1795341600 s.
const apiMinutes = [
  { minute: '2026-11-22T09:57:00Z', response_time: 110, status: 'degraded' },
  { minute: '2026-11-22T09:59:00Z', response_time: 130, status: 'up' },
];
export const charts = {
  monitors: [
    {
      id: 101,
      name: 'API',
      state: 'up',
      avg_response_time_today: 143,
      hourly_data: [
        { hour: 6, avg_response: 201, uptime: 100 },
        { hour: 9, avg_response: 123, uptime: 100 },
      ],
      minute_data: apiMinutes,
      yesterday_hourly_data: [
        { hour: 11, avg_response: 170, uptime: 75 },
        { hour: 20, avg_response: 150, uptime: 100 },
      ],
    },
  ],
  overall: 'operational',
  globalDaily: [
    { date: '2026-11-22', uptime: 100 },
    { date: '2026-11-21', uptime: 99 },
  ],
  timestamp: 1795341600,
};
export const minute = { monitors: [{ id: 101, minute_data: apiMinutes }] };
export const availability = (period: string, monitorId = 101) => ({
  monitor_id: monitorId,
  monitor_name: 'API',
  period,
  availability: {
    uptime_percentage: 99.9,
    downtime_seconds: 86,
    total_seconds: 86400,
    mtbf_seconds: 86314,
    mttr_seconds: 86,
    incident_count: 1,
  },
  daily_breakdown: [
    { date: '2026-11-22', uptime_percentage: 99.9, downtime_seconds: 86 },
    { date: '2026-11-21', uptime_percentage: 100, downtime_seconds: 0 },
  ],
});
// rtm=240, the minutes 06:01–10:00 oldest first: 06:30 → 201, 09:57 → 110, 09:59 → 130, the rest
// empty. The 29 leading empty minutes take the first value (201), later ones carry the previous
// value forward: 06:01–09:56 → 236 × 201, then 110, 110 (09:58), 130, 130 (10:00, no check yet).
export const rtm = [...new Array<number>(236).fill(201), 110, 110, 130, 130];
// upd=30, the days 2026-10-24 to 2026-11-22 oldest first: 2026-11-21 (index 28) → 99 as in
// globalDaily; today → 100; the days before the first check have no data → 100.
export const upd = Array.from({ length: 30 }, (_, i) => (i === 28 ? 99 : 100));
export const embedIncident = {
  id: 'inc-3',
  title: 'API errors',
  state: 'identified',
  started: '2026-11-20T08:00:00Z',
  component: 'API, Web',
};
export const snippets = (slug: string) => ({
  status_page_url: `${BASE_URL}/s/${slug}`,
  badge_markdown: `[![Status](${BASE_URL}/badge/${slug}.svg)](${BASE_URL}/s/${slug})`,
  badge_html: `<a href="${BASE_URL}/s/${slug}"><img alt="Status" src="${BASE_URL}/badge/${slug}.svg"></a>`,
  widget_script: `<script src="${BASE_URL}/static/embed/v1/status.js" data-slug="${slug}" data-theme="auto" async></script>`,
  widget_html: `<div class="status-widget"><script src="${BASE_URL}/static/embed/v1/status.js" data-slug="${slug}" data-theme="auto" data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>`,
  minimal_md: `**Operational** · [View status page](${BASE_URL}/s/${slug})`,
});

/** `monitorId`: monitor ids are global (a monitor belongs to one page), so each page has its own. */
export const fullPage = (slug: string, extra: Partial<SeedPage> = {}, monitorId = 101): SeedPage => ({
  slug,
  incidents,
  maintenances,
  series: {
    now: Date.parse(FIXTURE_NOW),
    monitors: [
      { id: monitorId, name: 'API', type: 'http', impact: 'partial', position: null, checks: apiChecks },
    ],
  },
  snippets: snippets(slug),
  overall: 'operational',
  embed: {
    page: slug,
    page_url: `${BASE_URL}/s/${slug}`,
    overall: 'operational',
    updated: '2026-11-22T09:59:30Z',
    incidents: [embedIncident],
    dns_only: false,
  },
  availability: {
    [monitorId]: Object.fromEntries(
      ['24h', '7d', '30d', '90d', '1y'].map((p) => [p, availability(p, monitorId)]),
    ),
  },
  ...extra,
});

/** Each page's monitor (all named "API", with the same checks). */
export const monitorOf: Readonly<Record<string, number>> = {
  acme: 101,
  secret: 102,
  'secret-pro': 103,
  'blocked-page': 104,
  gone: 105,
  freebie: 106,
  propage: 107,
  'blocked-private': 108,
  'private-free': 109,
};

const fixturePage = (slug: string, extra: Partial<SeedPage> = {}) => fullPage(slug, extra, monitorOf[slug]);
const fixturePages: SeedPage[] = [
  fixturePage('acme'),
  fixturePage('secret', { token: TOKEN }),
  fixturePage('secret-pro', { token: TOKEN, plan: 'pro' }),
  fixturePage('blocked-page', { state: 'blocked' }),
  fixturePage('gone', { state: 'deleted' }),
  fixturePage('freebie', { plan: 'free' }),
  fixturePage('propage', { plan: 'pro' }),
  fixturePage('blocked-private', { state: 'blocked', token: TOKEN, plan: 'free' }),
  fixturePage('private-free', { token: TOKEN, plan: 'free' }),
  { slug: 'empty', plan: 'business' }, // access only: models not rendered yet
];

export type ApiTestApp = {
  app: Express;
  redis: RedisClient;
  prefix: string;
  logLines: string[];
  close: () => Promise<void>;
};

/** Fresh prefix, seeded fixture, the app with a logger writing into `logLines`. */
export const startApiTestApp = async (
  opts: { seed?: boolean; metrics?: HttpMetrics } = {},
): Promise<ApiTestApp> => {
  const redis = testRedis();
  const prefix = freshRedisPrefix();
  if (opts.seed !== false) {
    await seedActive(redis, prefix);
    for (const page of fixturePages) await seedPage(redis, prefix, page);
  }
  const logLines: string[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      logLines.push(chunk.toString());
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const config = loadConfig({ PUBLIC_BASE_URL: BASE_URL });
  // The tests try wrong tokens on every endpoint; their throttling is tested in tokenThrottle.test.ts.
  const tokenThrottle = { maxFailures: 1000, windowMs: 60_000 };
  const metrics = opts.metrics ? { metrics: opts.metrics } : {};
  const app = buildApp({ redis, prefix, config, log, tokenThrottle, clock: fixtureClock, ...metrics });
  return {
    app,
    redis,
    prefix,
    logLines,
    close: async () => {
      await dropRedisPrefix(redis, prefix);
      await redis.quit();
    },
  };
};
