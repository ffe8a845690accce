// The pages every API test reads: one public Growth page with everything, and one page per
// access case (private, blocked, deleted, free, pro), each with full models so that only the
// access rule can explain an error. Also builds the app on a fresh prefix.
import { Writable } from 'node:stream';
import type { Express } from 'express';
import type { RedisClient } from '../../src/models/redis/redisClient.ts';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { HttpMetrics } from '../../src/http/httpMetrics.ts';
import { seedActive, seedPage, type SeedPage } from './seedReadModels.ts';
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

const point = (hour: number) => ({ hour, avg_response: 120 + hour, uptime: 100 });
export const charts = {
  monitors: [
    {
      id: 101,
      name: 'API',
      state: 'up',
      avg_response_time_today: 123,
      hourly_data: [point(0), point(1)],
      minute_data: [{ minute: '2026-11-22T09:59:00Z', response_time: 118, status: 'up' }],
      yesterday_hourly_data: [point(23)],
    },
  ],
  overall: 'operational',
  globalDaily: [
    { date: '2026-11-22', uptime: 100 },
    { date: '2026-11-21', uptime: 99.5 },
  ],
  timestamp: 1795341600,
};
export const minute = {
  monitors: [
    { id: 101, minute_data: [{ minute: '2026-11-22T09:59:00Z', response_time: 118, status: 'up' }] },
  ],
};
export const availability = (period: string) => ({
  monitor_id: 101,
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
export const rtm = [...new Array<number | null>(236).fill(200), null, 110, null, 130]; // 240 minutes, oldest first
export const upd = Array.from({ length: 30 }, (_, i) => (i === 28 ? 99.5 : 100)); // 30 days, oldest first
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

export const fullPage = (slug: string, extra: Partial<SeedPage> = {}): SeedPage => ({
  slug,
  incidents,
  maintenances,
  charts,
  minute,
  snippets: snippets(slug),
  overall: 'operational',
  embed: {
    page: slug,
    page_url: `${BASE_URL}/s/${slug}`,
    overall: 'operational',
    updated: '2026-11-22T09:59:30Z',
    incidents: [embedIncident],
    rtm,
    upd,
    dns_only: false,
  },
  availability: {
    101: Object.fromEntries(['24h', '7d', '30d', '90d', '1y'].map((p) => [p, availability(p)])),
  },
  ...extra,
});

export const fixturePages: SeedPage[] = [
  fullPage('acme'),
  fullPage('secret', { token: TOKEN }),
  fullPage('secret-pro', { token: TOKEN, plan: 'pro' }),
  fullPage('blocked-page', { state: 'blocked' }),
  fullPage('gone', { state: 'deleted' }),
  fullPage('freebie', { plan: 'free' }),
  fullPage('propage', { plan: 'pro' }),
  fullPage('blocked-private', { state: 'blocked', token: TOKEN, plan: 'free' }),
  fullPage('private-free', { token: TOKEN, plan: 'free' }),
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
  const app = buildApp({ redis, prefix, config, log, tokenThrottle, ...metrics });
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
