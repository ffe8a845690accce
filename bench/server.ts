// A server under test, run as a child process (`node --import tsx bench/server.ts <mode>`) so the
// load generator never shares its event loop. Prints {"port": n} once listening.
//   app    the real API (buildApp with the request path of `npm run serve`: shared subscriber,
//          response cache, request-log policy, live-stream limits and the listener's connection
//          bounds from the environment), logging to /dev/null and counting request metrics; for
//          the hostile bench, GET /__bench/stats tells how requests marked X-Bench-Hot fared
//          (answered from the memo or not) and the live_streams_open gauge
//   hello  baseline: an Express 5 hello-world route
//   raw    baseline: node:http answering every request with one Redis GET (BENCH_KEY)
//   sql    the comparison: the charts response computed from PostgreSQL per request
import { createServer, type RequestListener } from 'node:http';
import { getHeapSpaceStatistics } from 'node:v8';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { destination, pino } from 'pino';
import { Registry } from 'prom-client';
import { buildPublicHandler } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createReadPath } from '../src/http/readPath.ts';
import { createDb } from '../src/eventLog/createDb.ts';
import { listen } from '../src/runtime/listen.ts';
import { createChangeHub } from '../src/readModels/embed/changeHub.ts';
import { registerStreamGauge } from '../src/readModels/embed/streamGauge.ts';
import { loadStreamLimits } from '../src/readModels/embed/streamLimits.ts';
import { sqlCharts } from './sqlCharts.ts';

const mode = process.argv[2];
// Exit normally on SIGTERM, so a profile asked for with NODE_OPTIONS=--cpu-prof is written.
process.once('SIGTERM', () => process.exit(0));
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`bench/server.ts needs ${name}`);
  return value;
};

const listening = (server: ReturnType<typeof createServer>) =>
  server.once('listening', () => {
    console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
  });

if (mode === 'app') {
  // The API process's V8 settings, as `npm run serve` applies them (its listener's module); the
  // baselines run on V8's defaults.
  await import('../src/runtime/apiV8Tuning.ts');
  const config = loadConfig();
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  // Whatever lines production writes (LOG_REQUESTS): keep the cost, drop the output.
  const log = pino({ level: 'info' }, destination({ dest: '/dev/null', sync: false }));
  const readPath = createReadPath({ redis, prefix: config.redisPrefix, log });
  await readPath.subscriber.ready();
  const registry = new Registry();
  const streams = createChangeHub({
    redis,
    prefix: config.redisPrefix,
    log,
    subscriber: readPath.subscriber,
    limits: loadStreamLimits(),
  });
  registerStreamGauge(registry, streams);
  const app = buildPublicHandler({
    redis,
    prefix: config.redisPrefix,
    config,
    log,
    registry,
    streams,
    subscriber: readPath.subscriber,
    requestLog: readPath.requestLog,
    ...(readPath.cache ? { cache: readPath.cache } : {}),
    ...(readPath.memo ? { memo: readPath.memo } : {}),
  });
  const hot = { requests: 0, memo: 0 };
  const memo = readPath.memo;
  const instrumented: RequestListener = (req, res) => {
    if (req.url === '/__bench/stats') {
      (globalThis as { gc?: () => void }).gc?.(); // a full collection: the heap then holds what is kept
      const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
      void registry.getSingleMetricAsString('live_streams_open').then((text) => {
        const open = Number(/^live_streams_open (\d+)$/m.exec(text)?.[1]);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            hot,
            live_streams_open: open,
            heap_mb: heapMb,
            memo: memo?.stats(),
            cache: readPath.cache?.stats(),
            memory: process.memoryUsage(),
            // Where the heap's room is: new space (the young generation) against the old spaces.
            spaces: Object.fromEntries(
              getHeapSpaceStatistics().map((space) => [
                space.space_name,
                { size: space.space_size, used: space.space_used_size },
              ]),
            ),
          }),
        );
      });
      return;
    }
    if (req.headers['x-bench-hot'] === undefined || memo === undefined) {
      app(req, res);
      return;
    }
    // The memo answers synchronously or not at all: its hit count moves within this call.
    const before = memo.stats().hits;
    app(req, res);
    hot.requests += 1;
    hot.memo += memo.stats().hits - before;
  };
  const { server } = await listen(instrumented, 0, '127.0.0.1');
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
} else if (mode === 'hello') {
  const app = express();
  app.get('/', (_req, res) => {
    res.send('Hello World!');
  });
  listening(createServer(app).listen(0, '127.0.0.1'));
} else if (mode === 'raw') {
  const redis = new Redis(env('REDIS_URL'), { maxRetriesPerRequest: 2 });
  const key = env('BENCH_KEY');
  const server = createServer((_req, res) => {
    redis.get(key).then(
      (value) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(value ?? '');
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  listening(server.listen(0, '127.0.0.1'));
} else if (mode === 'sql') {
  const db = await createDb(env('DATABASE_URL'), { maximumPoolSize: 10 });
  const app = express();
  app.get('/charts/:table', async (req, res) => {
    const raw = req.query['monitors'];
    const monitors = (typeof raw === 'string' ? raw : '').split(',').map(Number);
    res.json(await sqlCharts(db, req.params.table, monitors, Date.now()));
  });
  listening(createServer(app).listen(0, '127.0.0.1'));
} else {
  console.error('usage: bench/server.ts app|hello|raw|sql');
  process.exit(2);
}
