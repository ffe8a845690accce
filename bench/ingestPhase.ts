// Sustained ingest + projection: events appended through appendEvents in batches of 1,000 by two
// appenders (disjoint pages, as two agents would), projected by the real worker process, timed
// until the projection has caught up; against a raw multi-row INSERT of the same rows into a
// plain table. Then the projection lag at a fixed offered rate, sampled every 100 ms.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type DatabasePool } from 'slonik';
import type { Redis } from 'ioredis';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { projectionStatus } from '../src/projector/projectionStatus.ts';
import type { ProjectorQueue } from '../src/projector/queue.ts';
import { pageHash } from '../src/shared/pageHash.ts';
import { MINUTE_MS } from '../src/shared/time.ts';
import {
  appendAll,
  benchMonitors,
  checkEvent,
  setupEvents,
  type BenchMonitor,
  type RawEvent,
} from './fixtures.ts';
import type { Figure } from './report.ts';

export type IngestContext = Readonly<{
  db: DatabasePool;
  redis: Redis;
  prefix: string;
  queue: ProjectorQueue;
  partitions: number;
  log: (line: string) => void;
}>;

const BATCH = 1_000;
const LANES = 2;
const PAGES = 8;
const MONITORS_PER_PAGE = 25;

export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Waits until every partition has projected the whole log; the time it did (performance.now()). */
export const waitForLagZero = async (
  ctx: Pick<IngestContext, 'db' | 'redis' | 'prefix'>,
  timeoutMs: number,
  everyMs = 200,
): Promise<number> => {
  const started = performance.now();
  for (;;) {
    const status = await projectionStatus(ctx.db, ctx.redis, ctx.prefix);
    if (status.lag_events === 0) return performance.now();
    if (performance.now() - started > timeoutMs)
      throw new Error(`projection still ${status.lag_events} events behind after ${timeoutMs} ms`);
    await sleep(everyMs);
  }
};

const lanesOf = (): BenchMonitor[][] => {
  const lanes: BenchMonitor[][] = Array.from({ length: LANES }, () => []);
  for (let p = 1; p <= PAGES; p += 1)
    lanes[p % LANES]!.push(...benchMonitors(`ing-${p}`, 10_000 + p * 100, MONITORS_PER_PAGE));
  return lanes;
};

/** `total` checks split over the lanes, each lane in order of `at` per monitor, ending a minute ago. */
const backlog = (lanes: readonly BenchMonitor[][], total: number, nowMs: number): RawEvent[][] => {
  const monitors = lanes.reduce((n, l) => n + l.length, 0);
  const slots = Math.ceil(total / monitors);
  const first = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS - (slots + 1) * MINUTE_MS;
  return lanes.map((lane) => {
    const events: RawEvent[] = [];
    for (let s = 0; s < slots; s += 1)
      for (const m of lane) events.push(checkEvent(m, first + s * MINUTE_MS + m.offsetMs));
    return events;
  });
};

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const rawInsert = async (db: DatabasePool, lanes: readonly RawEvent[][]): Promise<number> => {
  await db.query(sql.unsafe`
    CREATE TABLE bench_raw_log (position bigint, type text, page text, page_hash bigint, at timestamptz, data jsonb, event_id text)`);
  let position = 0;
  const started = performance.now();
  await Promise.all(
    lanes.map(async (events) => {
      for (const batch of chunks(events, BATCH)) {
        const rows = batch.map((e) => [
          ++position,
          e.type,
          e.page,
          pageHash(e.page),
          e.at,
          JSON.stringify(e.data),
          null,
        ]);
        await db.query(sql.unsafe`
          INSERT INTO bench_raw_log SELECT * FROM ${sql.unnest(rows, ['int8', 'text', 'text', 'int8', 'timestamptz', 'jsonb', 'text'])}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await db.query(sql.unsafe`DROP TABLE bench_raw_log`);
  return lanes.reduce((n, l) => n + l.length, 0) / seconds;
};

export const ingestPhase = async (
  ctx: IngestContext,
  options: { events: number; offeredRate: number; lagSeconds: number },
) => {
  const wake = async (pages: string[]) => ctx.queue.wakePages(pages, ctx.partitions);
  const lanes = lanesOf();
  for (let p = 1; p <= PAGES; p += 1) {
    const monitors = lanes.flat().filter((m) => m.page === `ing-${p}`);
    await appendAll(ctx.db, setupEvents(`ing-${p}`, monitors, Date.now() - 3 * 86_400_000), {
      batchSize: BATCH,
      onCommitted: (r) => wake(r.pages),
    });
  }
  await waitForLagZero(ctx, 60_000);

  const events = backlog(lanes, options.events, Date.now());
  const total = events.reduce((n, l) => n + l.length, 0);
  const raw = await rawInsert(ctx.db, events);
  ctx.log(`  raw INSERT: ${Math.round(raw)} rows/s`);

  const started = performance.now();
  await Promise.all(
    events.map(async (laneEvents) => {
      for (const batch of chunks(laneEvents, BATCH))
        await appendEvents(ctx.db, batch, { now: new Date(), onCommitted: (r) => wake(r.pages) });
    }),
  );
  const appended = performance.now();
  const caughtUp = await waitForLagZero(ctx, 600_000, 100);
  const sustained = total / ((caughtUp - started) / 1000);
  ctx.log(`  ingest + projection: ${Math.round(sustained)} events/s`);

  const lag = await lagAtRate(ctx, lanes, wake, options.offeredRate, options.lagSeconds);
  const figures: Figure[] = [
    {
      section: 'ingest',
      name: `${total.toLocaleString('en-US')} checks, ${PAGES} pages × ${MONITORS_PER_PAGE} monitors, until lag 0`,
      unit: 'events/s',
      value: sustained,
      baseline: { name: 'raw INSERT, plain table', value: raw },
      ratio: sustained / raw,
      target: { text: '≥ 25,000 events/s', met: sustained >= 25_000 },
      detail: {
        append_only_events_per_s: total / ((appended - started) / 1000),
        seconds: (caughtUp - started) / 1000,
        batch: BATCH,
        appenders: LANES,
      },
    },
    {
      section: 'lag',
      name: `lag p99 at ${options.offeredRate.toLocaleString('en-US')} events/s offered for ${options.lagSeconds} s`,
      unit: 's',
      value: lag.p99,
      baseline: { name: 'append commit p99', value: lag.appendP99 },
      ratio: lag.p99 / Math.max(lag.appendP99, 0.001),
      ...(options.offeredRate >= 10_000
        ? { target: { text: '≤ 2 s at 10,000 events/s', met: lag.p99 <= 2 } }
        : {}),
      detail: {
        lag_p50_s: lag.p50,
        lag_max_s: lag.max,
        achieved_events_per_s: lag.achieved,
        samples: lag.samples,
        drain_s: lag.drain,
        append_p50_s: lag.appendP50,
      },
    },
    {
      section: 'lag',
      name: 'lag p50',
      unit: 's',
      value: lag.p50,
      baseline: { name: 'append commit p50', value: lag.appendP50 },
      ratio: lag.p50 / Math.max(lag.appendP50, 0.001),
    },
  ];
  return figures;
};

/** Offers `rate` events/s for `seconds` (every 100 ms each appender appends its share) and samples the lag. */
const lagAtRate = async (
  ctx: IngestContext,
  lanes: readonly BenchMonitor[][],
  wake: (pages: string[]) => Promise<void>,
  rate: number,
  seconds: number,
) => {
  const samples: number[] = [];
  const appendLatencies: number[] = [];
  let offering = true;
  let sent = 0;
  const started = performance.now();
  const sampler = (async () => {
    while (offering) {
      const tick = performance.now();
      samples.push((await projectionStatus(ctx.db, ctx.redis, ctx.prefix)).lag_seconds);
      await sleep(Math.max(0, 100 - (performance.now() - tick)));
    }
  })();
  await Promise.all(
    lanes.map(async (lane) => {
      const share = rate / lanes.length;
      let laneSent = 0;
      let cursor = 0;
      for (let tick = 1; tick * 100 <= seconds * 1000; tick += 1) {
        await sleep(Math.max(0, started + tick * 100 - performance.now()));
        const owed = Math.min(Math.floor((share * tick) / 10) - laneSent, share); // never more than 1 s behind
        const nowMs = Date.now();
        const batch: RawEvent[] = [];
        for (let i = 0; i < owed; i += 1) batch.push(checkEvent(lane[cursor++ % lane.length]!, nowMs));
        laneSent += owed;
        if (batch.length === 0) continue;
        const t0 = performance.now();
        await appendEvents(ctx.db, batch, { now: new Date(), onCommitted: (r) => wake(r.pages) });
        appendLatencies.push((performance.now() - t0) / 1000);
        sent += batch.length;
      }
    }),
  );
  const offeredFor = (performance.now() - started) / 1000;
  offering = false;
  await sampler;
  const drainStarted = performance.now();
  const drained = await waitForLagZero(ctx, 600_000, 100);
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: Math.max(0, ...samples),
    samples: samples.length,
    achieved: sent / offeredFor,
    drain: (drained - drainStarted) / 1000,
    appendP50: percentile(appendLatencies, 50),
    appendP99: percentile(appendLatencies, 99),
  };
};
