// A status page with a story, for the browser test and the README screenshots: four monitors
// with 90 days of checks (hourly, then every 5 minutes for two days, then every minute for the
// last hour), a few outages, an active incident, maintenance in progress and scheduled, an
// incident last month, and a private page. Deterministic: the same events every run.
import { check, monitorConfigured, pageConfigured } from './events.ts';

export const FIXTURE_NOW = '2026-11-22T12:00:30Z';
export const VAULT_TOKEN = 'vault-browser-token-0123456789';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const now = Date.parse(FIXTURE_NOW);
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

export const MONITORS = [
  { id: 1, name: 'Website', base: 180 },
  { id: 2, name: 'API', base: 95 },
  { id: 3, name: 'Dashboard', base: 240 },
  { id: 4, name: 'Database', base: 12 },
] as const;

/** [monitor, from, to (ms before now), status]: everything else is up. */
const TROUBLE: readonly (readonly [number, number, number, string])[] = [
  [1, 55 * DAY, 55 * DAY - 2 * HOUR, 'down'], // two hours
  [2, 20 * DAY, 20 * DAY - 45 * MIN, 'down'],
  [2, 9 * DAY, 9 * DAY - 3 * HOUR, 'degraded'],
  [4, 1 * DAY, 1 * DAY - 30 * MIN, 'down'],
  [3, 20 * MIN, 0, 'degraded'],
];

const statusAt = (monitor: number, ago: number): string =>
  TROUBLE.find(([m, from, to]) => m === monitor && ago <= from && ago > to)?.[3] ?? 'up';

// A smooth daily rhythm plus a little deterministic noise.
const responseTime = (base: number, at: number, status: string): number => {
  const hour = (at % DAY) / HOUR;
  const wave = 1 + 0.25 * Math.sin(((hour - 8) / 24) * 2 * Math.PI);
  const noise = ((at / MIN) * 7919) % 13;
  return Math.round(base * wave + noise + (status === 'degraded' ? base * 4 : 0));
};

const checkTimes = (): number[] => {
  const times: number[] = [];
  for (let at = now - 90 * DAY; at < now - 2 * DAY; at += HOUR) times.push(at);
  for (let at = now - 2 * DAY; at < now - HOUR; at += 5 * MIN) times.push(at);
  for (let at = now - HOUR; at <= now - 30_000; at += MIN) times.push(at);
  return times;
};

const ev = (type: string, page: string, ago: number, data: object) => ({
  type,
  page,
  at: iso(now - ago),
  data,
});

const incidents = [
  ev('incident.opened', 'acme', 25 * MIN, {
    incident_id: 'dash-slow',
    title: 'Slow dashboard loading',
    message: 'Some dashboard pages take longer than usual to load. We are looking into it.',
    components: ['Dashboard'],
  }),
  ev('incident.updated', 'acme', 10 * MIN, {
    incident_id: 'dash-slow',
    state: 'identified',
    message: 'A slow query in the reporting service; a fix is being deployed.',
  }),
  ev('incident.opened', 'acme', 20 * DAY, {
    incident_id: 'api-errors',
    title: 'Elevated API error rates',
    message: 'API requests are failing at an elevated rate.',
    components: ['API'],
  }),
  ev('incident.updated', 'acme', 20 * DAY - 15 * MIN, {
    incident_id: 'api-errors',
    state: 'identified',
    message: 'A message queue node ran out of disk space.',
  }),
  ev('incident.updated', 'acme', 20 * DAY - 45 * MIN, {
    incident_id: 'api-errors',
    state: 'resolved',
    message: 'The API is operating normally.',
  }),
  ev('incident.opened', 'acme', 1 * DAY, {
    incident_id: 'db-failover',
    title: 'Database failover',
    message: 'The primary database is unreachable; failing over.',
    components: ['Database'],
  }),
  ev('incident.updated', 'acme', 1 * DAY - 30 * MIN, {
    incident_id: 'db-failover',
    state: 'resolved',
    message: 'The replica took over; all writes succeed.',
  }),
];

const maintenances = [
  ev('maintenance.scheduled', 'acme', 12 * DAY, {
    maintenance_id: 'cdn-move',
    title: 'CDN provider migration',
    description: 'Moving static assets to a new CDN provider.',
    components: ['Website'],
    scheduled_start: iso(now - 10 * DAY),
    scheduled_end: iso(now - 10 * DAY + HOUR),
  }),
  ev('maintenance.completed', 'acme', 10 * DAY - 50 * MIN, { maintenance_id: 'cdn-move' }),
  ev('maintenance.scheduled', 'acme', 3 * DAY, {
    maintenance_id: 'net-core',
    title: 'Core network maintenance',
    description: 'Replacing the core routers. Short connection resets are possible.',
    components: ['Website', 'API'],
    scheduled_start: iso(now - 30 * MIN),
    scheduled_end: iso(now + 90 * MIN),
  }),
  ev('maintenance.scheduled', 'acme', 1 * DAY, {
    maintenance_id: 'db-upgrade',
    title: 'Database upgrade',
    description: 'Upgrading the database cluster; writes may pause for a minute.',
    components: ['Database'],
    scheduled_start: iso(now + 5 * DAY),
    scheduled_end: iso(now + 5 * DAY + 2 * HOUR),
  }),
];

// October: one incident, so the calendar has a previous month to show.
const lastMonth = [
  {
    type: 'incident.opened',
    page: 'acme',
    at: '2026-10-14T09:00:00Z',
    data: { incident_id: 'login-oct', title: 'Login failures', message: 'Users cannot log in.' },
  },
  {
    type: 'incident.updated',
    page: 'acme',
    at: '2026-10-14T10:00:00Z',
    data: { incident_id: 'login-oct', state: 'resolved', message: 'Fixed.' },
  },
];

/** Every event, in an order the write path accepts (checks per monitor ascending). */
export const statusPageEvents = (): object[] => {
  const setupAt = iso(now - 91 * DAY);
  const setup = [
    pageConfigured('acme', { title: 'Acme Cloud', plan: 'business' }, setupAt),
    ...MONITORS.map((m, i) => monitorConfigured('acme', m.id, { name: m.name, position: i + 1 }, setupAt)),
    pageConfigured('vault', { title: 'Vault', plan: 'business', auth_token: VAULT_TOKEN }, setupAt),
    monitorConfigured('vault', 21, { name: 'Vault API' }, setupAt),
  ];
  const checks = checkTimes().flatMap((at) => [
    ...MONITORS.map((m) => {
      const status = statusAt(m.id, now - at);
      return check('acme', m.id, iso(at), status, responseTime(m.base, at, status));
    }),
    ...(at > now - 2 * DAY ? [check('vault', 21, iso(at), 'up', responseTime(60, at, 'up'))] : []),
  ]);
  return [...setup, ...lastMonth, ...incidents, ...maintenances, ...checks];
};
