// Data the benchmarks run against, appended through the real write path: pages of monitors with
// history (checks in order per monitor), and live checks for the ingest figures.
import { randomBytes } from 'node:crypto';
import type { DatabasePool } from 'slonik';
import {
  DEMO_MONITORS,
  demoCheckData,
  demoUniform,
  type CheckData,
  type DemoMonitor,
} from '../src/demo/demoEvents.ts';
import { appendEvents, type AppendOptions } from '../src/eventLog/appendEvents.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, formatTimestamp } from '../src/shared/time.ts';

export type RawEvent = { type: string; page: string; at: string; data: Record<string, unknown> };
export type BenchMonitor = DemoMonitor & Readonly<{ page: string }>;

export const benchMonitors = (page: string, firstId: number, count: number): BenchMonitor[] =>
  Array.from({ length: count }, (_, i) => {
    const shape = DEMO_MONITORS[i % DEMO_MONITORS.length]!;
    return {
      ...shape,
      id: firstId + i,
      page,
      name: `${shape.name} ${i + 1}`,
      impact: 'partial',
      offsetMs: (i % 60) * 1000,
    };
  });

/** About one 30-minute failure a week per monitor, the same wherever the check falls. */
export const benchStatus = (monitorId: number, atMs: number): CheckData['status'] =>
  demoUniform(monitorId, Math.floor(atMs / (30 * MINUTE_MS)) * 30 * MINUTE_MS, 31) < 0.003 ? 'down' : 'up';

export const checkEvent = (m: BenchMonitor, atMs: number): RawEvent => ({
  type: 'check.recorded',
  page: m.page,
  at: formatTimestamp(atMs),
  data: demoCheckData(m, atMs, benchStatus(m.id, atMs)),
});

export const setupEvents = (page: string, monitors: readonly BenchMonitor[], atMs: number): RawEvent[] => [
  {
    type: 'page.configured',
    page,
    at: formatTimestamp(atMs),
    data: { title: `Bench ${page}`, plan: 'growth' },
  },
  ...monitors.map((m, i) => ({
    type: 'monitor.configured',
    page,
    at: formatTimestamp(atMs),
    data: { monitor_id: m.id, name: m.name, type: m.type, impact: m.impact, position: i + 1 },
  })),
];

/**
 * A page with `days` of history ending now: a check per minute for the last two days and one
 * per `coarseMs` before (older checks survive in the read models only as failures and daily
 * figures, so their density changes the build time, not what is stored or served).
 */
export function* historyPage(
  page: string,
  monitors: readonly BenchMonitor[],
  days: number,
  nowMs: number,
  coarseMs = HOUR_MS,
): Generator<RawEvent> {
  const end = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  const start = end - days * DAY_MS;
  const fineFrom = end - Math.min(days, 2) * DAY_MS;
  yield* setupEvents(page, monitors, start - MINUTE_MS);
  for (let slot = start; slot <= end; slot += slot < fineFrom ? coarseMs : MINUTE_MS)
    for (const m of monitors) if (slot + m.offsetMs <= nowMs) yield checkEvent(m, slot + m.offsetMs);
}

/** Appends `events` in order, `batchSize` at a time; returns how many were appended. */
export const appendAll = async (
  db: DatabasePool,
  events: Iterable<RawEvent>,
  options: { batchSize: number; onCommitted?: AppendOptions['onCommitted'] },
): Promise<number> => {
  let batch: RawEvent[] = [];
  let appended = 0;
  const flush = async () => {
    const result = await appendEvents(db, batch, {
      now: new Date(),
      ...(options.onCommitted ? { onCommitted: options.onCommitted } : {}),
    });
    appended += result.accepted;
    batch = [];
  };
  for (const event of events) {
    batch.push(event);
    if (batch.length >= options.batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  return appended;
};

/** A page on its own domain, for the custom-domain figure: five monitors with a day of checks. */
export const DOMAIN_PAGE = { slug: 'bench-domain', host: 'status.bench-domain.test' } as const;

export function* domainPageEvents(page: typeof DOMAIN_PAGE, nowMs: number): Generator<RawEvent> {
  for (const event of historyPage(page.slug, benchMonitors(page.slug, 3001, 5), 1, nowMs))
    yield event.type === 'page.configured'
      ? { ...event, data: { ...event.data, custom_domain: page.host } }
      : event;
}

/** A private page, for the token-guessing figure of the hostile bench. */
export const PRIVATE_PAGE = {
  slug: 'bench-private',
  event: (nowMs: number): RawEvent => ({
    type: 'page.configured',
    page: 'bench-private',
    at: new Date(nowMs - 60_000).toISOString(),
    data: {
      title: 'Private',
      plan: 'growth',
      custom_domain: null,
      auth_token: randomBytes(24).toString('hex'),
    },
  }),
} as const;
