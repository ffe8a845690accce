// `npx tsx bench/importBesideIngest.ts [events]` (default 1,000,000): a CLI import (`npm run ingest`,
// a process of its own) while HTTP ingest takes a batch of 10 checks every 100 ms and the real
// worker process projects, in a database and Redis prefix of their own. Prints the import's rate,
// the HTTP answers (statuses, worst and p99 latency) and the worst projection lag sampled every
// 250 ms during the import; docs/ingest.md shows the latest run. Targets: every answer 202 in
// under 1 s, lag under 5 s.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { ingestRouter } from '../src/ingest/ingestRouter.ts';
import { createActiveVersionReader } from '../src/store/control/activeVersionReader.ts';
import { projectionStatus } from '../src/projector/projectionStatus.ts';
import { createProjectorQueue, createWake } from '../src/projector/queue.ts';
import { startBenchEnv } from './benchEnv.ts';
import { startWorker, stopAll } from './children.ts';

const EVENTS = Number(process.argv[2] ?? 1_000_000);
const TOKEN = 'bench-ingest-token-0123456789';
const MONITORS = 20;
const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => void process.stderr.write(`${line}\n`);
const quantile = (values: readonly number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;

/** The import: a page of MONITORS monitors and checks a minute apart, oldest first, ending now. */
const writeImport = async (path: string, now: number) => {
  const out = createWriteStream(path);
  const write = (event: object) => out.write(`${JSON.stringify(event)}\n`) || once(out, 'drain');
  await write({
    type: 'page.configured',
    page: 'bulk',
    at: new Date(now - 400 * 86_400_000).toISOString(),
    data: { title: 'Bulk', plan: 'business' },
  });
  for (let m = 1; m <= MONITORS; m++)
    await write({
      type: 'monitor.configured',
      page: 'bulk',
      at: new Date(now - 400 * 86_400_000).toISOString(),
      data: { monitor_id: m, name: `M${String(m)}` },
    });
  const checks = EVENTS - 1 - MONITORS;
  const perMonitor = Math.ceil(checks / MONITORS);
  for (let i = 0; i < checks; i++) {
    const minute = perMonitor - 1 - Math.floor(i / MONITORS);
    const at = new Date(now - minute * 60_000 - 1_000).toISOString();
    const status = i % 97 === 0 ? 'down' : 'up';
    await write({
      type: 'check.recorded',
      page: 'bulk',
      at,
      data: { monitor_id: (i % MONITORS) + 1, status, response_time_ms: 100 + (i % 50) },
    });
  }
  out.end();
  await once(out, 'finish');
};

const env = await startBenchEnv();
const dir = await mkdtemp(join(tmpdir(), 'import-beside-'));
const queueRedis = new Redis(env.redisUrl, { maxRetriesPerRequest: null });
const queue = createProjectorQueue(queueRedis, env.prefix);
try {
  const path = join(dir, 'import.ndjson');
  log(`writing ${EVENTS.toLocaleString('en-US')} events…`);
  await writeImport(path, Date.now());
  await appendEvents(
    env.db,
    [
      {
        type: 'page.configured',
        page: 'live',
        at: new Date().toISOString(),
        data: { title: 'Live', plan: 'business' },
      },
      {
        type: 'monitor.configured',
        page: 'live',
        at: new Date().toISOString(),
        data: { monitor_id: 100_001, name: 'Live' },
      },
    ],
    { now: new Date() },
  );
  const serverEnv = {
    REDIS_URL: env.redisUrl,
    REDIS_PREFIX: env.prefix,
    DATABASE_URL: env.url,
    PROJECTOR_PARTITIONS: '4',
  };
  await startWorker(serverEnv);
  const app = express().use(
    ingestRouter({
      db: env.db,
      ingestToken: TOKEN,
      clock: () => new Date(),
      log: pino({ level: 'silent' }),
      wake: createWake(queue, createActiveVersionReader(env.redis, env.prefix)),
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/v1/events`;

  log('importing…');
  const started = performance.now();
  const cli = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'ingest', path], {
    cwd: root,
    env: { ...process.env, ...serverEnv, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let cliOut = '';
  cli.stdout.setEncoding('utf8').on('data', (text: string) => (cliOut += text));
  let running = true;
  const exited = once(cli, 'exit').then(([code]) => ((running = false), code as number));

  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const http = (async () => {
    for (let i = 0; running; i++) {
      const at = Date.now();
      const batch = Array.from({ length: 10 }, (_, j) => ({
        id: `live-${String(i)}-${String(j)}`,
        type: 'check.recorded',
        page: 'live',
        at: new Date(at - (9 - j) * 10).toISOString(),
        data: { monitor_id: 100_001, status: 'up', response_time_ms: 80 },
      }));
      const sent = performance.now();
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch),
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (performance.now() - sent))));
    }
  })();
  const lags: number[] = [];
  const sampler = (async () => {
    while (running) {
      lags.push((await projectionStatus(env.db, env.redis, env.prefix)).lag_seconds);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const code = await exited;
  const seconds = (performance.now() - started) / 1000;
  await Promise.all([http, sampler]);
  server.close();
  const result = {
    events: EVENTS,
    cli_exit: code,
    cli_output: cliOut.trim(),
    import_seconds: Math.round(seconds * 10) / 10,
    import_events_per_s: Math.round(EVENTS / seconds),
    http_batches: latencies.length,
    http_statuses: Object.fromEntries(statuses),
    http_max_ms: Math.round(Math.max(...latencies)),
    http_p99_ms: Math.round(quantile(latencies, 0.99)),
    lag_max_s: Math.max(...lags),
    lag_p99_s: quantile(lags, 0.99),
    lag_samples: process.env['SHOW_LAGS'] ? lags.join(' ') : undefined,
    targets_met:
      Math.max(...latencies) < 1_000 && Math.max(...lags) < 5 && [...statuses.keys()].every((s) => s === 202),
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await stopAll();
  await queue.close().catch(() => undefined);
  queueRedis.disconnect();
  await rm(dir, { recursive: true, force: true });
  await env.close();
}
