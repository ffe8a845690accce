// `npm run bench -- --scale [--quick]`: the inputs of the capacity model (docs/scaling.md), each
// measured in an environment of its own: events/s per worker process (one, then two real `npm run
// work` processes draining the same backlog), requests/s per API process (the embed and charts
// endpoints beside an Express hello-world), Redis bytes per monitor and per page after a year of
// history, and PostgreSQL bytes per check. It prints what one worker, one API process and one
// Redis of a given memory hold at one check per minute per monitor.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { partitionIndexName } from '../src/eventLog/partitionIndex.ts';
import { rebuild } from '../src/projector/rebuild.ts';
import { projectionStatus } from '../src/projector/projectionStatus.ts';
import { runPartition, type ProjectorDeps } from '../src/projector/runPartition.ts';
import { readActive } from '../src/store/control/versions.ts';
import { partitionTag } from '../projections/store/control/keys.ts';
import { monitorKeyPattern } from '../projections/store/monitor.ts';
import { pageKeyPattern } from '../projections/store/page.ts';
import { partitionOf } from '../src/shared/pageHash.ts';
import { MINUTE_MS } from '../src/shared/time.ts';
import { projectorDeps, startBenchEnv, type BenchEnv } from './benchEnv.ts';
import { startServer, startWorker, stopAll } from './children.ts';
import { FLEET_SETTINGS, fleetPhase, type FleetSettings } from './fleetPhase.ts';
import { appendAll, benchMonitors, checkEvent, historyPage, setupEvents, type RawEvent } from './fixtures.ts';
import { httpLoad, warmUp } from './httpLoad.ts';
import { usage } from './rebuildPhase.ts';
import type { Figure } from './report.ts';

export type ScaleSettings = Readonly<{
  /** Pages of MONITORS monitors that receive the backlog the workers drain. */
  pages: number;
  /** Checks per monitor in each backlog (one per minute). */
  minutes: number;
  /** Days of history of the page whose memory is measured. */
  historyDays: number;
  httpSeconds: number;
  /** The Redis size the capacity lines are worked out for. */
  redisGb: number;
}>;

export const SCALE_SETTINGS = {
  quick: { pages: 20, minutes: 100, historyDays: 30, httpSeconds: 3, redisGb: 8 },
  full: { pages: 50, minutes: 400, historyDays: 365, httpSeconds: 8, redisGb: 8 },
} satisfies Record<string, ScaleSettings>;

const MONITORS = 10; // per page, in the backlog and in the memory figure
const PARTITIONS = 8;
/** Share of a Redis's memory the models may fill: the rest is fragmentation and fork headroom. */
const REDIS_USABLE = 0.7;
const MINUTES_A_YEAR = 525_600;

type Log = (line: string) => void;

const fleet = (pages: number) =>
  Array.from({ length: pages }, (_, p) => benchMonitors(`scale-${p}`, 100_000 + p * 100, MONITORS));

/** One check per monitor per minute for `minutes` minutes from `fromMs`, minute by minute. */
function* backlog(pages: ReturnType<typeof fleet>, fromMs: number, minutes: number): Generator<RawEvent> {
  for (let i = 0; i < minutes; i += 1)
    for (const monitors of pages) for (const m of monitors) yield checkEvent(m, fromMs + i * MINUTE_MS);
}

const waitForLagZero = async (env: BenchEnv, timeoutMs: number): Promise<void> => {
  const started = performance.now();
  while ((await projectionStatus(env.db, env.redis, env.prefix)).lag_events > 0) {
    if (performance.now() - started > timeoutMs)
      throw new Error(`workers still behind after ${timeoutMs} ms`);
    await sleep(100);
  }
};

/** Events/s of `count` worker processes draining the backlog that is in the log when they start. */
const drain = async (env: BenchEnv, count: number): Promise<{ events: number; seconds: number }> => {
  const workerEnv = {
    REDIS_URL: env.redisUrl,
    REDIS_PREFIX: env.prefix,
    DATABASE_URL: env.url,
    PROJECTOR_PARTITIONS: String(PARTITIONS),
    LOG_LEVEL: 'info',
  };
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker(workerEnv)));
  const started = performance.now();
  // What is still pending once every worker is up (the first may have begun already).
  const events = (await projectionStatus(env.db, env.redis, env.prefix)).lag_events;
  await waitForLagZero(env, 600_000);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(workers.map((w) => w.stop()));
  return { events, seconds };
};

/** Bytes of the check tables with all their indexes, and of the partition index alone, per check. */
/** Pages rendered per second when a new minute starts (the clock render of every page). */
const clockRenders = async (deps: ProjectorDeps, prefix: string, pages: number): Promise<number> => {
  const active = (await readActive(deps.redis, prefix))!;
  const nextMinute = Date.now() + MINUTE_MS;
  const started = performance.now();
  for (let partition = 0; partition < active.partitions; partition += 1)
    await runPartition(
      { ...deps, clock: () => new Date(nextMinute) },
      { prefix, version: active.version, partition, partitions: active.partitions },
      { mode: 'continuous' },
    );
  return pages / ((performance.now() - started) / 1000);
};

const pgBytesPerCheck = async (db: DatabasePool) => {
  const row = await db.one(sql.type(
    z.object({ bytes: z.string(), partitionIndex: z.string(), checks: z.string(), events: z.string() }),
  )`
    SELECT (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('event_log_checks'))::text AS bytes,
           (SELECT coalesce(sum(pg_relation_size(relid)), 0) FROM pg_partition_tree(${partitionIndexName(PARTITIONS)}::regclass))::text
             AS "partitionIndex",
           (SELECT count(*) FROM event_log_checks)::text AS checks,
           (SELECT count(*) FROM event_log)::text AS events`);
  return {
    bytes: Number(row.bytes),
    partitionIndex: Number(row.partitionIndex),
    checks: Number(row.checks),
    events: Number(row.events),
  };
};

const figure = (name: string, unit: string, value: number, extra: Partial<Figure> = {}): Figure => ({
  section: 'scale',
  name,
  unit,
  value,
  baseline: null,
  ratio: null,
  ...extra,
});

export const scalePhase = async (
  settings: ScaleSettings,
  log: Log,
): Promise<{ figures: Figure[]; capacity: string[] }> => {
  const env = await startBenchEnv();
  let cleaned: Promise<void> | null = null;
  const cleanup = () => (cleaned ??= stopAll().then(() => env.close()));
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  const figures: Figure[] = [];
  try {
    const deps = projectorDeps(env);
    const pages = fleet(settings.pages);
    const nowMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
    const firstMs = nowMs - (2 * settings.minutes + 2) * MINUTE_MS;
    await appendAll(
      env.db,
      pages.flatMap((monitors) => setupEvents(monitors[0]!.page, monitors, firstMs - MINUTE_MS)),
      { batchSize: 5_000 },
    );
    await rebuild(deps, { prefix: env.prefix, partitions: PARTITIONS, graceMs: 0 });

    // Worker throughput: the same backlog size for one worker, then for two.
    const rates: number[] = [];
    for (const [round, count] of [1, 2].entries()) {
      const from = firstMs + round * settings.minutes * MINUTE_MS;
      await appendAll(env.db, backlog(pages, from, settings.minutes), { batchSize: 5_000 });
      log(
        `  draining ${(settings.pages * MONITORS * settings.minutes).toLocaleString('en-US')} checks with ${count} worker process(es)…`,
      );
      const { events, seconds } = await drain(env, count);
      rates.push(events / seconds);
      figures.push(
        figure(
          `projection, ${count} worker process${count > 1 ? 'es' : ''}, ${PARTITIONS} partitions`,
          'events/s',
          events / seconds,
          {
            ...(count > 1
              ? { baseline: { name: '1 process', value: rates[0]! }, ratio: events / seconds / rates[0]! }
              : {}),
            detail: { events, seconds, per_process: events / seconds / count },
          },
        ),
      );
    }

    // The clock: every page is rendered once a minute. Timed in this process, one partition
    // after the other, as one worker process does it for the partitions it holds.
    const renders = await clockRenders(deps, env.prefix, settings.pages);
    figures.push(
      // Only due pages render on a tick now: this is what a minute costs a partition of quiet pages.
      figure(`clock tick over quiet pages (${settings.pages} of ${MONITORS} monitors)`, 'pages/s', renders),
    );

    // API throughput: one process, the embed and charts bodies of a 10-monitor page.
    log('  one API process: embed and charts…');
    const serverEnv = {
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.prefix,
      DATABASE_URL: env.url,
      LOG_LEVEL: 'info',
    };
    const [app, hello] = await Promise.all([startServer('app', serverEnv), startServer('hello', serverEnv)]);
    const slug = pages[0]![0]!.page;
    const paths = {
      embed: `/api/embed/status?slug=${slug}&inc=1&rtm=60&upd=7`,
      charts: `/api/status/${slug}/charts`,
    };
    const load = async (url: string) => {
      await warmUp(url);
      return httpLoad(url, { connections: 10, duration: settings.httpSeconds });
    };
    const helloRps = (await load(`${hello.url}/`)).rps;
    const apiRps: Record<string, number> = {};
    for (const [name, path] of Object.entries(paths)) {
      const result = await load(app.url + path);
      if (result.failed + result.errors > 0)
        throw new Error(`${path}: ${result.failed} failed, ${result.errors} errors`);
      apiRps[name] = result.rps;
      figures.push(
        figure(`one API process: ${path.split('?')[0]}`, 'req/s', result.rps, {
          baseline: { name: 'Express hello-world', value: helloRps },
          ratio: result.rps / helloRps,
          detail: { p50_ms: result.p50, p99_ms: result.p99 },
        }),
      );
    }
    await Promise.all([app.stop(), hello.stop()]);

    // Memory after a year of history: a page of 10 monitors, built by a rebuild.
    const yearMonitors = benchMonitors('scale-year', 900_000, MONITORS);
    log(`  appending ${settings.historyDays} days of history for ${MONITORS} monitors…`);
    await appendAll(env.db, historyPage('scale-year', yearMonitors, settings.historyDays, Date.now()), {
      batchSize: 5_000,
    });
    log('  rebuilding, then measuring memory…');
    const active = await rebuild(deps, { prefix: env.prefix, partitions: PARTITIONS, graceMs: 0 });
    const tag = partitionTag(env.prefix, active.version, partitionOf('scale-year', PARTITIONS));
    let monitorBytes = 0;
    for (const m of yearMonitors)
      monitorBytes += (await usage(env.redis, monitorKeyPattern({ tag, monitorId: m.id }))).bytes;
    const perMonitor = monitorBytes / MONITORS;
    const pageBytes = (await usage(env.redis, pageKeyPattern({ tag, slug: 'scale-year' }))).bytes;
    const historyNote = `${settings.historyDays} days of history: a check per minute for the last 2 days, one per hour before (beyond 2 days the models keep failures and daily figures only, so older density changes build time, not memory)`;
    figures.push(
      figure('Redis per monitor (its own keys)', 'bytes', perMonitor, {
        target: { text: '≤ 200 KB with a page share', met: perMonitor + pageBytes / MONITORS <= 200_000 },
        detail: { note: historyNote },
      }),
      figure(`Redis per page of ${MONITORS} monitors (rendered outputs)`, 'bytes', pageBytes),
    );
    const pg = await pgBytesPerCheck(env.db);
    figures.push(
      figure('PostgreSQL per check (table + indexes)', 'bytes', pg.bytes / pg.checks, {
        detail: {
          checks: pg.checks,
          bytes: pg.bytes,
          partition_index_bytes_per_event: pg.partitionIndex / pg.events,
        },
      }),
    );

    const perWorker = rates[0]!;
    const perPage = pageBytes + MONITORS * perMonitor;
    const redisPages = (settings.redisGb * 2 ** 30 * REDIS_USABLE) / perPage;
    const fmt = (n: number) => Math.floor(n).toLocaleString('en-US');
    const capacity = [
      '',
      `Capacity at one check per minute per monitor, pages of ${MONITORS} monitors (docs/scaling.md):`,
      `  one worker process (${fmt(perWorker)} events/s flat out): ${fmt(perWorker * 60)} monitors = ${fmt((perWorker * 60) / MONITORS)} pages; at the 50 % load docs/scaling.md plans for: ${fmt(perWorker * 30)} monitors`,
      `  clock tick: ${fmt(renders)} quiet pages/s (a tick renders only the pages whose figures the clock moved)`,
      `  two worker processes: ${fmt(rates[1]!)} events/s (${(rates[1]! / perWorker).toFixed(2)}× one on this machine: both share its cores with PostgreSQL and Redis)`,
      `  one API process: ${fmt(apiRps['embed']! * 60)} embed requests/min, ${fmt(apiRps['charts']! * 60)} charts requests/min`,
      `  one Redis of ${settings.redisGb} GB (${REDIS_USABLE * 100} % usable): ${fmt(redisPages)} pages = ${fmt(redisPages * MONITORS)} monitors (${fmt(perPage)} bytes a page)`,
      `  PostgreSQL: ${fmt(pg.bytes / pg.checks)} bytes a check = ${(((pg.bytes / pg.checks) * MINUTES_A_YEAR) / 2 ** 20).toFixed(0)} MB a monitor-year of minute checks`,
    ];
    return { figures, capacity };
  } finally {
    await cleanup();
  }
};

/** The fleet phase in an environment of its own. */
const runFleet = async (settings: FleetSettings, log: Log): Promise<Figure[]> => {
  const env = await startBenchEnv();
  try {
    return await fleetPhase(env, settings, log);
  } finally {
    await stopAll();
    await env.close();
  }
};

/** Entry of `npm run bench -- --scale`: runs the phase and prints its table and capacity lines. */
export const runScaleBench = async (
  quick: boolean,
  format: (figures: readonly Figure[]) => string,
  fleetOnly = false,
): Promise<void> => {
  const log: Log = (line) => void process.stderr.write(`${line}\n`);
  const settings = quick ? SCALE_SETTINGS.quick : SCALE_SETTINGS.full;
  const fleetSettings = quick ? FLEET_SETTINGS.quick : FLEET_SETTINGS.full;
  const fleet = await runFleet(fleetSettings, log);
  const fleetLines = [
    `npm run bench -- --scale${quick ? ' --quick' : ''}, fleet: ${fleetSettings.pages} pages × 5 monitors, an hour of minute checks, ${fleetSettings.steadyMinutes} minutes of steady state`,
    format(fleet),
  ];
  if (fleetOnly) {
    console.log(fleetLines.join('\n'));
    return;
  }
  const { figures, capacity } = await scalePhase(settings, log);
  console.log(
    [
      `npm run bench -- --scale${quick ? ' --quick' : ''}: ${settings.pages} pages × ${MONITORS} monitors, ${settings.minutes} minutes a backlog, ${settings.historyDays} days of history`,
      format(figures),
      ...capacity,
      '',
      ...fleetLines,
    ].join('\n'),
  );
};
