// `npm run bench [-- --quick] [--only http|stream|load|edge|hostile|integrations|notify|notify-mail | --scale]`: every figure beside a baseline measured in the
// same run, in an isolated environment (a fresh database sp_bench_<random> and a Redis prefix of
// its own, both removed at the end). Prints a table; a full run writes bench/results/latest.json.
// `--only http` (or `stream`) loads and projects the demo page and runs that phase alone; it prints
// its table and leaves latest.json as it is. `--only load` is the part of the HTTP phase with the
// projector ingesting (read p99 under load, freshness) alone; `--only edge` the demo page behind a
// private Varnish (bench/edgePhase.ts) alone; `--only hostile` the hostile and careless clients
// against one API process (bench/hostilePhase.ts) alone. `--only notify` the notifications'
// figures: webhooks to 1,000 subscribers, then one update to 10,000 and 100,000 email subscribers
// (`--only notify-mail` the email part alone).
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { sql } from 'slonik';
import { z } from 'zod';
import { loadDemo } from '../src/demo/loadDemo.ts';
import { createProjectorQueue } from '../src/projector/queue.ts';
import { rebuild } from '../src/projector/rebuild.ts';
import { readActive } from '../src/store/control/versions.ts';
import { embedKeys } from '../projections/embed/codec.ts';
import { partitionTag } from '../projections/store/control/keys.ts';
import { partitionOf } from '../src/shared/pageHash.ts';
import { chartsPhase } from './chartsPhase.ts';
import { startServer, startWorker, stopAll } from './children.ts';
import { projectorDeps, startBenchEnv } from './benchEnv.ts';
import {
  appendAll,
  benchMonitors,
  DOMAIN_PAGE,
  domainPageEvents,
  historyPage,
  PRIVATE_PAGE,
} from './fixtures.ts';
import { domainPhase } from './domainPhase.ts';
import { edgePhase } from './edgePhase.ts';
import { httpPhase } from './httpPhase.ts';
import { httpUnderLoad } from './httpUnderLoad.ts';
import { runHostile } from './hostilePhase.ts';
import { ingestPhase } from './ingestPhase.ts';
import { runIntegrationsBench } from './integrationsPhase.ts';
import { runNotifyMailBench } from './notifyMailPhase.ts';
import { runNotifyBench } from './notifyPhase.ts';
import { procsPhase } from './procsPhase.ts';
import { memoryPhase, rebuildPhase } from './rebuildPhase.ts';
import { renderCostPhase } from './renderCostPhase.ts';
import { slaPhase } from './slaPhase.ts';
import { runScaleBench } from './scalePhase.ts';
import { streamPhase } from './streamPhase.ts';
import { streamsWithinFdLimit } from './fdLimit.ts';
import { formatTable, writeResults, type Figure } from './report.ts';
import { createChecksTable } from './sqlCharts.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    scale: { type: 'boolean', default: false },
  },
  strict: true,
});
if (values.scale) {
  // The capacity model's inputs run alone, in an environment of their own (bench/scalePhase.ts).
  if (values.only !== undefined && values.only !== 'fleet') {
    console.error(`--scale --only ${values.only}: only the fleet phase runs alone`);
    process.exit(2);
  }
  await runScaleBench(values.quick, formatTable, values.only === 'fleet');
  process.exit(0);
}
if (values.only === 'notify') {
  // Alone, each in an environment of its own: webhooks (bench/notifyPhase.ts), then email
  // (bench/notifyMailPhase.ts, also alone as --only notify-mail).
  await runNotifyBench(formatTable);
  await runNotifyMailBench(values.quick, formatTable);
  process.exit(0);
}
if (values.only === 'notify-mail') {
  // Alone, in an environment of its own (bench/notifyMailPhase.ts).
  await runNotifyMailBench(values.quick, formatTable);
  process.exit(0);
}
if (values.only === 'integrations') {
  // Alone, in an environment of its own (bench/integrationsPhase.ts).
  await runIntegrationsBench(formatTable);
  process.exit(0);
}
const quick = values.quick;
const only = values.only;
if (only !== undefined && !['http', 'stream', 'load', 'edge', 'hostile'].includes(only)) {
  console.error(`--only ${only}: only the http, stream, load, edge or hostile phase runs alone`);
  process.exit(2);
}
const hostileOnly = only === 'hostile';
const loadOnly = only === 'load';
const httpOnly = only === 'http' || loadOnly;
const streamOnly = only === 'stream';
const edgeOnly = only === 'edge';
const command = `npm run bench${quick || only ? ' --' : ''}${quick ? ' --quick' : ''}${only ? ` --only ${only}` : ''}`;
const settings = quick
  ? {
      httpSeconds: 2,
      baselineSeconds: 1,
      helloEvery: 4,
      chartMonitors: 10,
      longDays: 30,
      ingestEvents: 50_000,
      lagRate: 2_000,
      lagSeconds: 6,
      streams: 2_000,
      edgeSeconds: 10,
    }
  : {
      httpSeconds: 5,
      baselineSeconds: 3,
      helloEvery: 2,
      chartMonitors: 50,
      longDays: 365,
      ingestEvents: 400_000,
      lagRate: 10_000,
      lagSeconds: 20,
      streams: 10_000,
      edgeSeconds: 30,
    };
const PARTITIONS = 4;
const log = (line: string) => void process.stderr.write(`${line}\n`);
const began = performance.now();
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`;

const env = await startBenchEnv();
const queueRedis = new Redis(env.redisUrl, { maxRetriesPerRequest: null });
const queue = createProjectorQueue(queueRedis, env.prefix);
let cleaned: Promise<void> | null = null;
const cleanup = () =>
  (cleaned ??= (async () => {
    await stopAll();
    await queue.close().catch(() => undefined);
    queueRedis.disconnect();
    await env.close();
  })());
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

const figures: Figure[] = [];
const machine = {
  cpus: os.availableParallelism(),
  cpu_model: os.cpus()[0]?.model ?? 'unknown',
  memory_gb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  postgres: '',
  redis: '',
};
try {
  machine.postgres = await env.db.oneFirst(
    sql.type(z.object({ v: z.string() }))`SELECT current_setting('server_version') AS v`,
  );
  machine.redis = /redis_version:(\S+)/.exec(await env.redis.info('server'))?.[1] ?? 'unknown';
  log(`${command} in ${env.name} (Redis prefix ${env.prefix})`);

  // Data: the demo page, two chart pages (1 day and 1 year of history) and the per-request
  // baseline's checks tables (the demo page alone with --only http).
  await loadDemo({ db: env.db, clock: () => new Date(), progress: process.stderr });
  const nowMs = Date.now();
  await appendAll(env.db, domainPageEvents(DOMAIN_PAGE, nowMs), { batchSize: 5_000 });
  await appendAll(env.db, [PRIVATE_PAGE.event(nowMs)], { batchSize: 1 }); // its tokens are guessed
  const day = benchMonitors('bench-1d', 1001, settings.chartMonitors);
  const year = benchMonitors('bench-1y', 2001, settings.chartMonitors);
  const longLabel = settings.longDays === 365 ? '1 year' : `${settings.longDays} days`;
  if (only === undefined) {
    log(`[${elapsed()}] appending chart pages and filling the SQL baseline tables…`);
    await appendAll(env.db, historyPage('bench-1y', year, settings.longDays, nowMs), { batchSize: 5_000 });
    await Promise.all([
      appendAll(env.db, historyPage('bench-1d', day, 1, nowMs), { batchSize: 5_000 }),
      (async () => {
        await createChecksTable(
          env.db,
          'bench_checks_1d',
          day.map((m) => m.id),
          1,
          nowMs,
        );
        await createChecksTable(
          env.db,
          'bench_checks_long',
          year.map((m) => m.id),
          settings.longDays,
          nowMs,
        );
      })(),
    ]);
  }

  const deps = projectorDeps(env);
  log(`[${elapsed()}] projecting…`);
  const active = await rebuild(deps, { prefix: env.prefix, partitions: PARTITIONS, graceMs: 0 });

  // Let PostgreSQL finish what the bulk loads started (autovacuum, checkpoint) before timing HTTP.
  await env.db.query(sql.unsafe`VACUUM ANALYZE`);
  await env.db.query(sql.unsafe`CHECKPOINT`);
  const serverEnv = {
    REDIS_URL: env.redisUrl,
    REDIS_PREFIX: env.prefix,
    DATABASE_URL: env.url,
    LOG_LEVEL: 'info',
  };
  if (!httpOnly && !edgeOnly && !hostileOnly) {
    const streams = streamsWithinFdLimit(settings.streams, log);
    log(`[${elapsed()}] live streams…`);
    // The bench opens every stream from one address: the per-address cap would refuse most.
    const caps = { LIVE_STREAMS_PER_CLIENT: String(streams + 100), LIVE_STREAMS_MAX: String(streams + 100) };
    const server = await startServer('app', { ...serverEnv, ...caps });
    const phaseDeps = { db: env.db, redis: env.redis, projector: deps, prefix: env.prefix, server, log };
    const ref = { version: active.version, partitions: PARTITIONS };
    figures.push(...(await streamPhase({ ...phaseDeps, ...ref }, streams)));
    await server.stop();
  }
  if (!streamOnly && !edgeOnly && !hostileOnly) {
    log(`[${elapsed()}] HTTP…`);
    // A stored body sent as it is: the floor under any answer that reads Redis.
    const demoStored = embedKeys({
      tag: partitionTag(env.prefix, active.version, partitionOf('demo', PARTITIONS)),
      slug: 'demo',
    }).snippets;
    const [app, hello, raw] = await Promise.all([
      startServer('app', serverEnv),
      startServer('hello', serverEnv),
      startServer('raw', { ...serverEnv, BENCH_KEY: demoStored }),
    ]);
    const month = new Date().toISOString().slice(0, 7);
    if (!loadOnly) {
      figures.push(
        ...(await httpPhase(
          { app: app.url, hello: hello.url, raw: raw.url },
          {
            duration: settings.httpSeconds,
            baselineDuration: settings.baselineSeconds,
            helloEvery: settings.helloEvery,
            month,
            log,
          },
        )),
      );
      figures.push(await domainPhase(app.url, DOMAIN_PAGE, { duration: settings.httpSeconds, log }));
    }
    await Promise.all([hello.stop(), raw.stop()]);
    log(`[${elapsed()}] HTTP while the projector ingests…`);
    figures.push(
      ...(await httpUnderLoad(
        {
          db: env.db,
          redis: env.redis,
          prefix: env.prefix,
          queue,
          partitions: PARTITIONS,
          workerEnv: serverEnv,
          log,
        },
        app,
        { rate: settings.lagRate, duration: settings.httpSeconds },
      )),
    );
    if (httpOnly) {
      await app.stop();
    } else {
      const sqlServer = await startServer('sql', serverEnv);
      log(`[${elapsed()}] charts: projection vs SQL…`);
      figures.push(
        ...(await chartsPhase(
          { app: app.url, sql: sqlServer.url },
          [
            { label: '1 day', slug: 'bench-1d', table: 'bench_checks_1d', monitors: day.map((m) => m.id) },
            {
              label: longLabel,
              slug: 'bench-1y',
              table: 'bench_checks_long',
              monitors: year.map((m) => m.id),
            },
          ],
          {
            duration: settings.httpSeconds,
            log,
            note:
              `SQL tables hold a check per minute; the projected page bench-1y holds one per minute for the last 2 days and one per hour before ` +
              `(older checks live on in the read models only as failures and daily figures)${quick ? '; --quick: 10 monitors, 30 days instead of 50 monitors, 1 year' : ''}`,
          },
        )),
      );
      await Promise.all([app.stop(), sqlServer.stop()]);

      log(`[${elapsed()}] ingest + projection…`);
      // The real worker process; it logs at info, which is also how it says it is ready.
      const worker = await startWorker({ ...serverEnv, PROJECTOR_PARTITIONS: String(PARTITIONS) });
      figures.push(
        ...(await ingestPhase(
          { db: env.db, redis: env.redis, prefix: env.prefix, queue, partitions: PARTITIONS, log },
          { events: settings.ingestEvents, offeredRate: settings.lagRate, lagSeconds: settings.lagSeconds },
        )),
      );
      await worker.stop();

      log(`[${elapsed()}] render cost…`);
      const renderCost = { prefix: env.prefix, days: settings.longDays, rounds: quick ? 10 : 30, log };
      figures.push(...(await renderCostPhase(env.redis, renderCost)));
      log(`[${elapsed()}] SLA reports…`);
      figures.push(...(await slaPhase(env.redis, renderCost)));

      log(`[${elapsed()}] rebuild…`);
      figures.push(
        ...(await rebuildPhase(deps, {
          prefix: env.prefix,
          partitions: PARTITIONS,
          redisUrl: env.redisUrl,
          log,
        })),
      );
      const rebuilt = await readActive(env.redis, env.prefix);
      figures.push(
        ...(await memoryPhase(env.redis, env.db, {
          prefix: env.prefix,
          version: rebuilt!.version,
          partitions: PARTITIONS,
          slug: 'bench-1y',
          monitors: year.map((m) => m.id),
          table: 'bench_checks_long',
          tableDays: settings.longDays,
          label: longLabel,
        })),
      );
    }
  }
  if (only === undefined || edgeOnly) {
    log(`[${elapsed()}] edge: the demo page behind Varnish…`);
    const edgeDeps = { db: env.db, projector: deps, prefix: env.prefix, serverEnv, log };
    const built = (await readActive(env.redis, env.prefix))!;
    figures.push(...(await edgePhase({ ...edgeDeps, ...built }, { seconds: settings.edgeSeconds })));
  }
  if (only === undefined || hostileOnly) {
    log(`[${elapsed()}] hostile and careless clients, one API process…`);
    figures.push(...(await runHostile(serverEnv, quick, log)));
  }
  if (only === undefined) {
    log(`[${elapsed()}] processes: startup, WEB_CONCURRENCY…`);
    figures.push(...(await procsPhase({ env: serverEnv, quick, log })));
  }
} finally {
  await cleanup();
}

const seconds = (performance.now() - began) / 1000;
const header = [
  `${command}: ${machine.cpus} CPUs (${machine.cpu_model}), ${machine.memory_gb} GB, Node ${machine.node}, PostgreSQL ${machine.postgres}, Redis ${machine.redis}; ${seconds.toFixed(0)} s`,
  quick && httpOnly ? '--quick: 2 s per endpoint, a hello-world run after every fourth' : '',
  quick && streamOnly ? '--quick: 2,000 streams' : '',
  quick && edgeOnly ? '--quick: a 10 s herd instead of 30 s' : '',
  quick && hostileOnly ? '--quick: 20,000 flood requests, 200 + 200 slow sockets, 1,000 streams' : '',
  quick && only === undefined
    ? '--quick: shorter runs, 10 chart monitors, 30 days instead of 1 year, 50k ingest events, 2,000 events/s for 6 s for the lag'
    : '',
].filter(Boolean);
console.log([...header, formatTable(figures)].join('\n'));
if (only === undefined) {
  const path = await writeResults({
    command,
    quick,
    machine,
    settings,
    started_at: new Date(Date.now() - seconds * 1000).toISOString(),
    seconds,
    figures,
  });
  log(`\nwritten to ${path}`);
}
