// The demo page's story: its outages, incidents and maintenances, as offsets from `end` (the
// last whole minute at load time, negative in the past). demoEvents.ts turns them into events.
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../shared/time.ts';

type Run = Readonly<{ monitorId: number; from: number; to: number; status: 'down' | 'degraded' }>;

const D = DAY_MS;
const H = HOUR_MS;
const M = MINUTE_MS;

/** Down and degraded runs: [from, to) relative to `end` (negative: in the past). */
export const RUNS: readonly Run[] = [
  { monitorId: 4, from: -82 * D + 3 * H + 15 * M, to: -82 * D + 3 * H + 35 * M, status: 'down' },
  { monitorId: 5, from: -71 * D + 19 * H, to: -71 * D + 19 * H + 10 * M, status: 'down' },
  { monitorId: 5, from: -64 * D + 9 * H, to: -64 * D + 11 * H + 5 * M, status: 'degraded' },
  { monitorId: 2, from: -47 * D + 14 * H + 20 * M, to: -47 * D + 15 * H + 5 * M, status: 'down' },
  { monitorId: 3, from: -47 * D + 14 * H + 25 * M, to: -47 * D + 15 * H + 5 * M, status: 'down' },
  { monitorId: 6, from: -29 * D + 2 * H + 40 * M, to: -29 * D + 2 * H + 55 * M, status: 'down' },
  { monitorId: 1, from: -13 * D + 16 * H + 10 * M, to: -13 * D + 16 * H + 35 * M, status: 'down' },
  { monitorId: 2, from: -31 * H, to: -31 * H + 4 * M, status: 'down' },
  { monitorId: 2, from: -31 * H + 4 * M, to: -30 * H + 34 * M, status: 'degraded' },
  { monitorId: 1, from: -6 * H - 12 * M, to: -6 * H - 9 * M, status: 'down' },
  { monitorId: 3, from: -20 * M, to: 5 * M, status: 'degraded' },
];

type IncidentPlan = Readonly<{
  id: string;
  title: string;
  components: string[];
  updates: readonly (readonly [offset: number, state: string, message: string])[];
}>;

export const INCIDENTS: readonly IncidentPlan[] = [
  {
    id: 'db-pool-exhaustion',
    title: 'Database connection pool exhausted',
    components: ['Database', 'API'],
    updates: [
      [
        -82 * D + 3 * H + 18 * M,
        'investigating',
        'We are seeing failed connections to the primary database.',
      ],
      [
        -82 * D + 3 * H + 26 * M,
        'identified',
        'A batch job leaked connections and exhausted the pool. We are stopping it.',
      ],
      [-82 * D + 3 * H + 37 * M, 'monitoring', 'The pool has recovered; we are watching error rates.'],
      [
        -82 * D + 4 * H + 5 * M,
        'resolved',
        'Connections are back to normal. The batch job now uses its own pool.',
      ],
    ],
  },
  {
    id: 'cdn-latency-eu',
    title: 'Slow asset delivery in Europe',
    components: ['CDN'],
    updates: [
      [-64 * D + 9 * H + 10 * M, 'investigating', 'Static assets load slowly for some visitors in Europe.'],
      [-64 * D + 9 * H + 50 * M, 'identified', 'Our CDN provider has a degraded edge location in Frankfurt.'],
      [-64 * D + 11 * H + 10 * M, 'monitoring', 'Traffic has been moved to healthy edges.'],
      [-64 * D + 12 * H, 'resolved', 'Asset delivery times are back to normal.'],
    ],
  },
  {
    id: 'api-outage-deploy',
    title: 'API and Dashboard unavailable',
    components: ['API', 'Dashboard'],
    updates: [
      [
        -47 * D + 14 * H + 23 * M,
        'investigating',
        'The API is returning errors. The dashboard is affected too.',
      ],
      [
        -47 * D + 14 * H + 40 * M,
        'identified',
        'A faulty deploy broke request routing. We are rolling it back.',
      ],
      [-47 * D + 15 * H + 8 * M, 'monitoring', 'The rollback is complete and requests succeed again.'],
      [
        -47 * D + 15 * H + 45 * M,
        'resolved',
        'All systems operational. We are adding a canary stage to deploys.',
      ],
    ],
  },
  {
    id: 'dns-resolution',
    title: 'DNS resolution failures',
    components: ['DNS'],
    updates: [
      [-29 * D + 2 * H + 44 * M, 'investigating', 'Some DNS queries for our domains time out.'],
      [
        -29 * D + 2 * H + 52 * M,
        'identified',
        'One of our DNS providers has an outage; we are failing over.',
      ],
      [-29 * D + 2 * H + 58 * M, 'monitoring', 'Queries are answered by the secondary provider.'],
      [-29 * D + 3 * H + 30 * M, 'resolved', 'DNS is fully operational.'],
    ],
  },
  {
    id: 'website-down-lb',
    title: 'Website unreachable',
    components: ['Website'],
    updates: [
      [-13 * D + 16 * H + 12 * M, 'investigating', 'The website does not load for most visitors.'],
      [-13 * D + 16 * H + 24 * M, 'identified', 'A load balancer certificate expired. We are renewing it.'],
      [-13 * D + 16 * H + 37 * M, 'monitoring', 'The new certificate is deployed.'],
      [-13 * D + 17 * H, 'resolved', 'The website is reachable again. Certificate renewal is now automated.'],
    ],
  },
  {
    id: 'api-errors-queue',
    title: 'Elevated API error rates',
    components: ['API'],
    updates: [
      [-31 * H + 2 * M, 'investigating', 'API requests are failing at an elevated rate.'],
      [-31 * H + 10 * M, 'identified', 'A message queue node ran out of disk space.'],
      [-30 * H + 36 * M, 'monitoring', 'Disk space is freed and response times are recovering.'],
      [-29 * H, 'resolved', 'The API is operating normally.'],
    ],
  },
  {
    id: 'dashboard-slow',
    title: 'Slow dashboard loading',
    components: ['Dashboard'],
    updates: [
      [
        -18 * M,
        'investigating',
        'Some dashboard pages take longer than usual to load. We are looking into it.',
      ],
    ],
  },
];

type MaintenancePlan = Readonly<{
  id: string;
  title: string;
  description: string;
  components: string[];
  created: number;
  start: number;
  end: number;
  transitions: readonly (readonly [
    offset: number,
    type: 'maintenance.started' | 'maintenance.completed' | 'maintenance.cancelled',
  ])[];
}>;

export const MAINTENANCES: readonly MaintenancePlan[] = [
  {
    id: 'db-upgrade-16',
    title: 'Database upgrade',
    description: 'Upgrading the primary database cluster. Writes may pause for up to a minute.',
    components: ['Database'],
    created: -67 * D,
    start: -60 * D + 2 * H,
    end: -60 * D + 4 * H,
    transitions: [
      [-60 * D + 2 * H, 'maintenance.started'],
      [-60 * D + 3 * H + 20 * M, 'maintenance.completed'],
    ],
  },
  {
    id: 'network-switch-swap',
    title: 'Network switch replacement',
    description: 'Replacing core switches in our primary data center.',
    components: ['Website', 'API'],
    created: -30 * D,
    start: -23 * D + 1 * H,
    end: -23 * D + 3 * H,
    transitions: [],
  },
  {
    id: 'cdn-migration',
    title: 'CDN provider migration',
    description: 'Moving static assets to a new CDN provider.',
    components: ['CDN'],
    created: -20 * D,
    start: -12 * D + 6 * H,
    end: -12 * D + 9 * H,
    transitions: [[-14 * D, 'maintenance.cancelled']],
  },
  {
    id: 'dashboard-search-reindex',
    title: 'Dashboard search reindexing',
    description: 'Rebuilding the search index. Search results may be incomplete.',
    components: ['Dashboard'],
    created: -3 * D,
    start: -30 * M,
    end: 90 * M,
    transitions: [[-30 * M, 'maintenance.started']],
  },
  {
    id: 'api-gateway-upgrade',
    title: 'API gateway upgrade',
    description: 'Rolling upgrade of the API gateway; no downtime expected.',
    components: ['API'],
    created: -1 * D,
    start: 5 * D + 2 * H,
    end: 5 * D + 4 * H,
    transitions: [],
  },
  {
    id: 'dns-provider-change',
    title: 'DNS provider change',
    description: 'Switching the secondary DNS provider.',
    components: ['DNS'],
    created: -1 * D,
    start: 12 * D + 3 * H,
    end: 12 * D + 5 * H,
    transitions: [],
  },
];
