// One of the public API's processes when WEB_CONCURRENCY > 1 (a node:cluster worker): only the
// public listener, reading Redis. The primary runs everything that must run once: migrations, the
// operator listener (ingest, probes, metrics), and with `npm start` the projector and scheduler.
import { Registry } from 'prom-client';
import { collectProcessMetrics } from './processMetrics.ts';
import type { Config } from '../config.ts';
import { createLogger } from '../shared/logger.ts';
import { createReadRedis } from './clients.ts';
import { answerMetricsRequests } from './clusterMetrics.ts';
import { createShutdown } from './onShutdown.ts';
import { createDb } from '../eventLog/createDb.ts';
import { systemClock } from '../shared/clock.ts';
import { servePublic } from './serve.ts';
import { createEmailChannel } from '../notify/email/emailChannel.ts';

export const apiProcess = async (config: Config): Promise<null> => {
  const log = createLogger(config.logLevel, 'api', config.logFormat);
  const redis = createReadRedis(config);
  redis.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));
  const { onShutdown } = createShutdown(log);
  onShutdown(() => redis.disconnect());
  const registry = new Registry();
  collectProcessMetrics(registry);
  answerMetricsRequests(registry);
  // Push monitors' heartbeats append to the log; the projectors' poll picks them up (no queue here).
  const db = await createDb(config.databaseUrl, { maximumPoolSize: 2 });
  onShutdown(() => db.end());
  const push = { db, wake: () => Promise.resolve(), clock: systemClock, log };
  const email = await createEmailChannel(config, { db, redis, log });
  if (email) onShutdown(() => email.close());
  await servePublic(
    config,
    { redis, log, push, ...(email ? { signup: email.signup } : {}) },
    onShutdown,
    registry,
  );
  log.info({ port: config.port }, 'API process listening');
  return null;
};
