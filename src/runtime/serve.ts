// `npm run serve`: the public API and the operator listener; no projection work.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { createReadPath } from '../http/readPath.ts';
import { buildOperatorApp } from '../operatorApp.ts';
import { registerProjectorGauges } from '../projector/projectorMetrics.ts';
import { createProjectorQueue, createWake } from '../projector/queue.ts';
import { createActiveVersionReader } from '../models/control/activeVersionReader.ts';
import { createDomainDirectory } from '../models/domains/domainDirectory.ts';
import { systemClock } from '../shared/clock.ts';
import { hostOfUrl } from '../shared/hostName.ts';
import type { Clients } from './clients.ts';
import { createChangeHub } from '../stream/changeHub.ts';
import { listen } from './listen.ts';

export const serve = async (
  config: Config,
  clients: Clients,
  onShutdown: (close: () => Promise<unknown>) => void,
) => {
  const { db, readRedis: redis, queueRedis, log } = clients;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const queue = createProjectorQueue(queueRedis, config.redisPrefix);
  registerProjectorGauges(registry, { db, redis, prefix: config.redisPrefix, log, queue: queue.queue });
  const active = createActiveVersionReader(redis, config.redisPrefix);
  const wake = createWake(queue, active);
  // One subscriber per process: custom domains, live streams and the response cache share it.
  const readPath = createReadPath({ redis, prefix: config.redisPrefix, log });
  const { subscriber } = readPath;
  const domains = createDomainDirectory({
    redis,
    prefix: config.redisPrefix,
    log,
    readActive: active,
    subscriber,
  });
  const streams = createChangeHub({ redis, prefix: config.redisPrefix, log, subscriber });
  const api = await listen(
    buildApp({
      redis,
      prefix: config.redisPrefix,
      config,
      log,
      registry,
      streams,
      domains,
      subscriber,
      requestLog: readPath.requestLog,
      ...(readPath.cache ? { cache: readPath.cache } : {}),
    }),
    config.port,
    config.host,
  );
  const operator = await listen(
    buildOperatorApp({
      db,
      redis,
      prefix: config.redisPrefix,
      registry,
      log,
      clock: systemClock,
      ingest: { token: config.ingestToken, wake, ownHost: hostOfUrl(config.publicBaseUrl) },
    }),
    config.ingestPort,
    config.ingestHost,
  );
  onShutdown(() => queue.close());
  onShutdown(() => operator.close());
  onShutdown(() => api.close());
  onShutdown(() => readPath.close());
  onShutdown(() => domains.close());
  onShutdown(() => streams.close()); // before api.close (closers run in reverse): open streams end
  log.info({ port: config.port, host: config.host }, 'public API listening');
  log.info(
    { port: config.ingestPort, host: config.ingestHost },
    'operator listener (ingest, probes, metrics) listening',
  );
  if (!config.ingestToken)
    log.warn('ingest disabled: set INGEST_TOKEN (16+ characters) to accept POST /v1/events');
  return { wake, registry };
};
