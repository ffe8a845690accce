// The fleet phase of `npm run bench -- --scale`: many quiet pages (5 monitors, an hour of minute
// checks each), then steady state at one check per monitor per minute with a status flip every
// few seconds, projected by one real worker process. It prints the worker's CPU per minute and per
// page-minute, the projection lag p99, flip-to-visible freshness p99, Redis bytes per page, and
// the cost (CPU, bytes written) of an incident update on a page with 10,000 incidents and of a
// maintenance update on a page with 10,000 maintenances (docs/scaling.md).
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { partitionTag } from '../projections/store/control/keys.ts';
import { readActive } from '../src/store/control/versions.ts';
import { embedKeys } from '../projections/embed/codec.ts';
import { monitorKeyPattern } from '../projections/store/monitor.ts';
import { pageKeyPattern } from '../projections/store/page.ts';
import { projectionStatus } from '../src/projector/projectionStatus.ts';
import { createProjectorQueue } from '../src/projector/queue.ts';
import { rebuild } from '../src/projector/rebuild.ts';
import { runPartition } from '../src/projector/runPartition.ts';
import { partitionOf } from '../src/shared/pageHash.ts';
import { HOUR_MS, MINUTE_MS, formatTimestamp } from '../src/shared/time.ts';
import { commandsDuring, writeBytes } from '../test/support/redisWrites.ts';
import { projectorDeps, type BenchEnv } from './benchEnv.ts';
import { buildToScratch, startWorker } from './children.ts';
import {
  appendAll,
  benchMonitors,
  checkEvent,
  setupEvents,
  type BenchMonitor,
  type RawEvent,
} from './fixtures.ts';
import { usage } from './rebuildPhase.ts';
import type { Figure } from './report.ts';

export type FleetSettings = Readonly<{
  pages: number;
  /** Minutes of steady state measured. */
  steadyMinutes: number;
  /** Incidents (and maintenances) on the page whose update cost is measured. */
  incidents: number;
}>;

export const FLEET_SETTINGS = {
  quick: { pages: 2_000, steadyMinutes: 2, incidents: 10_000 },
  full: { pages: 10_000, steadyMinutes: 5, incidents: 10_000 },
} satisfies Record<string, FleetSettings>;

const MONITORS = 5;
const PARTITIONS = 8;
const HISTORY_MINUTES = 60;
const FLIP_EVERY_MS = 3_000;
const SAMPLED_PAGES = 10;
/** The baseline of the incident-update cost: the same page with a short history. */
const FEW_INCIDENTS = 100;
/** Maintenances still to come on the page whose maintenance-update cost is measured. */
const UPCOMING = 10;
const TICKS_PER_SECOND = 100; // /proc/<pid>/stat counts CPU time in clock ticks (USER_HZ)

type Log = (line: string) => void;

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** CPU seconds (user + system) a process has used so far. */
const cpuSeconds = async (pid: number): Promise<number> => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
};

const figure = (name: string, unit: string, value: number, extra: Partial<Figure> = {}): Figure => ({
  section: 'fleet',
  name,
  unit,
  value,
  baseline: null,
  ratio: null,
  ...extra,
});

const check = (m: BenchMonitor, atMs: number, status: 'up' | 'down'): RawEvent => ({
  ...checkEvent(m, atMs),
  data: { ...checkEvent(m, atMs).data, status },
});

/** Steady state: every monitor checked once a minute (spread over the seconds), one flip every few seconds. */
const steadyState = async (
  env: BenchEnv,
  pages: readonly (readonly BenchMonitor[])[],
  settings: FleetSettings,
  log: Log,
) => {
  const queue = createProjectorQueue(env.redis, env.prefix);
  const active = (await readActive(env.redis, env.prefix))!;
  const down = new Set<number>();
  const monitors = pages.flat();
  const lags: number[] = [];
  const freshness: number[] = [];
  const append = async (events: RawEvent[]) => {
    const result = await appendEvents(env.db, events, { now: new Date() });
    await queue.wakePages(result.pages, active.partitions);
  };
  const endsAt = Date.now() + settings.steadyMinutes * MINUTE_MS;
  // Checks: each second, the monitors whose turn it is (monitor i at second i mod 60).
  const checks = (async () => {
    for (let second = Math.floor(Date.now() / 1000); Date.now() < endsAt; second += 1) {
      await sleep(Math.max(0, second * 1000 - Date.now()));
      const due = monitors.filter((m) => m.id % 60 === second % 60);
      await append(due.map((m) => check(m, second * 1000, down.has(m.id) ? 'down' : 'up')));
    }
  })();
  // Flips: one monitor of page n goes down, then back up; each time its page's overall status changes.
  const flips = (async () => {
    await sleep(MINUTE_MS / 2); // every monitor has had a steady check: all pages operational
    for (let n = 0; Date.now() < endsAt - FLIP_EVERY_MS; n += 1) {
      const monitor = pages[Math.floor(n / 2) % pages.length]![0]!;
      const slug = monitor.page;
      const overallKey = embedKeys({
        tag: partitionTag(env.prefix, active.version, partitionOf(slug, active.partitions)),
        slug,
      }).overall;
      const before = await env.redis.get(overallKey);
      if (n % 2 === 0) down.add(monitor.id);
      else down.delete(monitor.id);
      const sent = performance.now();
      await append([check(monitor, Date.now(), down.has(monitor.id) ? 'down' : 'up')]);
      while ((await env.redis.get(overallKey)) === before && performance.now() - sent < 60_000)
        await sleep(5);
      freshness.push(performance.now() - sent);
      await sleep(Math.max(0, FLIP_EVERY_MS - (performance.now() - sent)));
    }
  })();
  const lag = (async () => {
    while (Date.now() < endsAt) {
      lags.push((await projectionStatus(env.db, env.redis, env.prefix)).lag_seconds);
      await sleep(1_000);
    }
  })();
  let minute = 0;
  const progress = setInterval(
    () => log(`    steady state: minute ${(minute += 1)} of ${settings.steadyMinutes}`),
    MINUTE_MS,
  );
  await Promise.all([checks, flips, lag]).finally(() => clearInterval(progress));
  await queue.close();
  return { lags, freshness };
};

/**
 * Runs `measure` beside one worker process as operators run it (`npm run work`: the build under
 * node, not the sources under tsx: its CPU is the figure), 5 s after its start-up; answers what
 * `measure` found with the minutes it took and the worker's CPU seconds meanwhile.
 */
const measureWorker = async <T>(env: BenchEnv, measure: () => Promise<T>) => {
  const build = await buildToScratch();
  try {
    const worker = await startWorker(
      {
        REDIS_URL: env.redisUrl,
        REDIS_PREFIX: env.prefix,
        DATABASE_URL: env.url,
        PROJECTOR_PARTITIONS: String(PARTITIONS),
      },
      build.entry,
    );
    try {
      await sleep(5_000); // its start-up and first clock render out of the way
      const cpuBefore = await cpuSeconds(worker.pid);
      const started = performance.now();
      const found = await measure();
      const minutes = (performance.now() - started) / MINUTE_MS;
      return { ...found, minutes, cpu: (await cpuSeconds(worker.pid)) - cpuBefore };
    } finally {
      await worker.stop();
    }
  } finally {
    await build.remove();
  }
};

type UpdateCost = Readonly<{ ms: number; bytes: number }>;

/**
 * Worker CPU of one update (median of 20) on a page whose history `history` appends, projected
 * and rendered in this process; and the Redis bytes a 21st update writes to the page's keys
 * (seen through MONITOR, apart from the timed rounds: watching costs this process CPU too).
 */
const updateCost = async (
  env: BenchEnv,
  slug: string,
  history: Generator<RawEvent>,
  update: (round: number, at: string) => RawEvent,
): Promise<UpdateCost> => {
  const deps = projectorDeps(env);
  await appendAll(env.db, history, { batchSize: 5_000 });
  // Projected by this process from the partition's checkpoint (the fleet is projected already).
  const active = (await readActive(env.redis, env.prefix))!;
  const partition = partitionOf(slug, active.partitions);
  const ref = { prefix: env.prefix, version: active.version, partition, partitions: active.partitions };
  while (!(await runPartition(deps, ref, { mode: 'continuous' })).caughtUp);
  const once = async (round: number) => {
    await appendEvents(env.db, [update(round, formatTimestamp(Date.now()))], { now: new Date() });
    await sleep(20); // the reader's horizon: the append's transaction is visible to it
    const cpu = process.cpuUsage();
    let events = 0;
    for (let tries = 0; events === 0 && tries < 50; tries += 1) {
      events += (await runPartition(deps, ref, { mode: 'continuous' })).events;
      if (events === 0) await sleep(10);
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000;
  };
  const costs: number[] = [];
  for (let round = 0; round < 20; round += 1) costs.push(await once(round));
  const page = pageKeyPattern({ tag: partitionTag(env.prefix, active.version, partition), slug }).slice(
    0,
    -1,
  );
  const seen = await commandsDuring(env.redisUrl, page, () => once(20));
  return { ms: percentile(costs, 50), bytes: writeBytes(seen) };
};

/** One incident update on a page with `count` incidents, each opened and resolved. */
export const incidentUpdateCost = (env: BenchEnv, count: number, log: Log): Promise<UpdateCost> => {
  const slug = `fleet-incidents-${count}`;
  const monitors = benchMonitors(slug, 5_000_000 + count, MONITORS);
  const startMs = Date.now() - count * MINUTE_MS - 10 * MINUTE_MS;
  log(`  a page with ${count.toLocaleString('en-US')} incidents…`);
  function* history(): Generator<RawEvent> {
    yield* setupEvents(slug, monitors, startMs - MINUTE_MS);
    for (let i = 0; i < count; i += 1) {
      const at = startMs + i * MINUTE_MS;
      const data = {
        incident_id: `i${i}`,
        title: `Incident ${i}`,
        message: 'Looking into it',
        components: [],
      };
      yield { type: 'incident.opened', page: slug, at: formatTimestamp(at), data };
      yield {
        type: 'incident.updated',
        page: slug,
        at: formatTimestamp(at + 30_000),
        data: { incident_id: `i${i}`, state: 'resolved', message: 'Fixed' },
      };
    }
  }
  return updateCost(env, slug, history(), (round, at) => ({
    type: 'incident.updated',
    page: slug,
    at,
    data: { incident_id: `i${count - 1 - (round % count)}`, state: 'monitoring', message: `Round ${round}` },
  }));
};

/**
 * One maintenance update on a page with `count` maintenances: an hour each, six hours apart, all
 * completed but the last ten, still to come; an update moves one of those and describes it.
 */
export const maintenanceUpdateCost = (env: BenchEnv, count: number, log: Log): Promise<UpdateCost> => {
  const slug = `fleet-maintenances-${count}`;
  const monitors = benchMonitors(slug, 6_000_000 + count, MONITORS);
  const nowMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const startOf = (i: number) => nowMs + (i - (count - UPCOMING)) * 6 * HOUR_MS + HOUR_MS;
  log(`  a page with ${count.toLocaleString('en-US')} maintenances…`);
  function* history(): Generator<RawEvent> {
    yield* setupEvents(slug, monitors, startOf(0) - HOUR_MS);
    for (let i = 0; i < count; i += 1)
      yield {
        type: 'maintenance.scheduled',
        page: slug,
        at: formatTimestamp(Math.min(nowMs, startOf(i) - HOUR_MS)),
        data: {
          maintenance_id: `m${i}`,
          title: `Maintenance ${i}`,
          scheduled_start: formatTimestamp(startOf(i)),
          scheduled_end: formatTimestamp(startOf(i) + HOUR_MS),
          components: [monitors[i % MONITORS]!.name],
        },
      };
  }
  return updateCost(env, slug, history(), (round, at) => {
    const i = count - 1 - (round % UPCOMING);
    const start = startOf(i) + (round + 1) * HOUR_MS;
    return {
      type: 'maintenance.updated',
      page: slug,
      at,
      data: {
        maintenance_id: `m${i}`,
        description: `Moved in round ${round}`,
        scheduled_start: formatTimestamp(start),
        scheduled_end: formatTimestamp(start + HOUR_MS),
      },
    };
  });
};

/** An update's CPU beside the same page with a short history, and the bytes it writes. */
const updateFigures = (kind: string, count: number, cost: UpdateCost, few: UpdateCost): Figure[] => [
  figure(`${kind} update on a page with ${count.toLocaleString('en-US')} ${kind}s`, 'ms CPU', cost.ms, {
    baseline: { name: `a page with ${FEW_INCIDENTS} ${kind}s`, value: few.ms },
    ratio: cost.ms / few.ms,
    target: { text: '< 5 ms', met: cost.ms < 5 },
    detail: { note: 'median of 20, projected and rendered in the bench process' },
  }),
  figure(
    `Redis bytes one ${kind} update writes (${count.toLocaleString('en-US')} ${kind}s)`,
    'bytes',
    cost.bytes,
    {
      baseline: { name: `a page with ${FEW_INCIDENTS} ${kind}s`, value: few.bytes },
      ratio: cost.bytes / few.bytes,
      detail: { note: "the commands on the page's keys, their keys and arguments" },
    },
  ),
];

export const fleetPhase = async (env: BenchEnv, settings: FleetSettings, log: Log): Promise<Figure[]> => {
  const deps = projectorDeps(env);
  const pages = Array.from({ length: settings.pages }, (_, p) =>
    benchMonitors(`fleet-${p}`, 1_000_000 + p * 10, MONITORS),
  );
  const nowMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const firstMs = nowMs - HISTORY_MINUTES * MINUTE_MS;
  log(
    `  fleet: ${settings.pages.toLocaleString('en-US')} pages × ${MONITORS} monitors, an hour of minute checks…`,
  );
  await appendAll(
    env.db,
    pages.flatMap((monitors) => setupEvents(monitors[0]!.page, monitors, firstMs - MINUTE_MS)),
    {
      batchSize: 5_000,
    },
  );
  function* hour(): Generator<RawEvent> {
    for (let i = 0; i < HISTORY_MINUTES; i += 1)
      for (const monitors of pages)
        for (const m of monitors) yield check(m, firstMs + i * MINUTE_MS + m.offsetMs, 'up');
  }
  const appending = performance.now();
  const appended = await appendAll(env.db, hour(), { batchSize: 5_000 });
  log(
    `    ${appended.toLocaleString('en-US')} checks appended in ${((performance.now() - appending) / 1000).toFixed(0)} s; building the models…`,
  );
  const building = performance.now();
  const active = await rebuild(deps, { prefix: env.prefix, partitions: PARTITIONS, graceMs: 0 });
  log(`    built in ${((performance.now() - building) / 1000).toFixed(0)} s`);

  // Redis bytes of a quiet page: its own keys and its monitors', sampled.
  let bytes = 0;
  let keys = 0;
  const kinds = new Map<string, number>();
  for (const monitors of pages.slice(0, SAMPLED_PAGES)) {
    const slug = monitors[0]!.page;
    const tag = partitionTag(env.prefix, active.version, partitionOf(slug, PARTITIONS));
    const page = await usage(env.redis, pageKeyPattern({ tag, slug }), kinds);
    bytes += page.bytes;
    keys += page.keys;
    for (const m of monitors) {
      const own = await usage(env.redis, monitorKeyPattern({ tag, monitorId: m.id }), kinds);
      bytes += own.bytes;
      keys += own.keys;
    }
  }
  const perPage = bytes / SAMPLED_PAGES;
  // The largest kinds of key, per page: where the bytes go.
  const largest = [...kinds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([kind, used]) => `${kind} ${Math.round(used / SAMPLED_PAGES / 1000)} KB`)
    .join(', ');

  log(`  steady state for ${settings.steadyMinutes} minutes, one worker process…`);
  const { lags, freshness, minutes, cpu } = await measureWorker(env, () =>
    steadyState(env, pages, settings, log),
  );
  const fewIncidents = await incidentUpdateCost(env, FEW_INCIDENTS, log);
  const incident = await incidentUpdateCost(env, settings.incidents, log);
  const fewMaintenances = await maintenanceUpdateCost(env, FEW_INCIDENTS, log);
  const maintenance = await maintenanceUpdateCost(env, settings.incidents, log);

  const pageMinutes = settings.pages * minutes;
  return [
    figure(
      `worker CPU, steady state (${settings.pages} pages × ${MONITORS} monitors)`,
      'CPU s/min',
      cpu / minutes,
      {
        detail: { cpu_seconds: cpu, minutes, note: '60 = one core flat out' },
      },
    ),
    figure('worker CPU per page-minute', 'ms', (cpu * 1000) / pageMinutes, {
      target: { text: '≤ 1 ms', met: (cpu * 1000) / pageMinutes <= 1 },
    }),
    figure('projection lag p99 (sampled each second)', 's', percentile(lags, 99), {
      detail: {
        samples: lags.length,
        max: Math.max(...lags),
        note: `lag: max ${Math.max(...lags)} s over ${lags.length} samples`,
      },
    }),
    figure('flip-to-visible freshness p99', 'ms', percentile(freshness, 99), {
      target: { text: '≤ 1 s', met: percentile(freshness, 99) <= 1_000 },
      detail: {
        flips: freshness.length,
        median_ms: percentile(freshness, 50),
        note: `freshness: ${freshness.length} flips, median ${Math.round(percentile(freshness, 50))} ms`,
      },
    }),
    figure(`Redis per quiet page (${MONITORS} monitors, an hour of history)`, 'bytes', perPage, {
      target: { text: '≤ 150 KB', met: perPage <= 150_000 },
      detail: {
        keys_per_page: keys / SAMPLED_PAGES,
        sampled_pages: SAMPLED_PAGES,
        note: `${Math.round(keys / SAMPLED_PAGES)} keys a page; the largest kinds: ${largest}`,
      },
    }),
    ...updateFigures('incident', settings.incidents, incident, fewIncidents),
    ...updateFigures('maintenance', settings.incidents, maintenance, fewMaintenances),
  ];
};
