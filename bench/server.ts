// A server under test, run as a child process (`node --import tsx bench/server.ts <mode>`) so the
// load generator never shares its event loop. Prints {"port": n} once listening.
//   app    the real API (buildApp with the request path of `npm run serve`: shared subscriber,
//          response cache, request-log policy from the environment), logging to /dev/null and
//          counting request metrics
//   hello  baseline: an Express 5 hello-world route
//   raw    baseline: node:http answering every request with one Redis GET (BENCH_KEY)
//   sql    the comparison: the charts response computed from PostgreSQL per request
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { destination, pino } from 'pino';
import { Registry } from 'prom-client';
import { buildPublicHandler } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createReadPath } from '../src/http/readPath.ts';
import { createDb } from '../src/eventLog/createDb.ts';
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
  const config = loadConfig();
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  // Whatever lines production writes (LOG_REQUESTS): keep the cost, drop the output.
  const log = pino({ level: 'info' }, destination({ dest: '/dev/null', sync: false }));
  const readPath = createReadPath({ redis, prefix: config.redisPrefix, log });
  await readPath.subscriber.ready();
  const app = buildPublicHandler({
    redis,
    prefix: config.redisPrefix,
    config,
    log,
    registry: new Registry(),
    subscriber: readPath.subscriber,
    requestLog: readPath.requestLog,
    ...(readPath.cache ? { cache: readPath.cache } : {}),
    ...(readPath.memo ? { memo: readPath.memo } : {}),
  });
  listening(createServer(app).listen(0, '127.0.0.1'));
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
