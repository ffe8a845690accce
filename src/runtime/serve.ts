// `npm run serve`: the public API and the operator listener; no projection work. With
// WEB_CONCURRENCY > 1 the public API runs in that many processes (apiProcesses.ts) and this
// process keeps the operator listener, so ingest, probes and metrics answer once per machine.
import type { RedisClient } from '../store/redisClient.ts';
import { Registry } from 'prom-client';
import { collectProcessMetrics } from './processMetrics.ts';
import { buildPublicHandler } from '../app.ts';
import type { Config } from '../config.ts';
import { createReadPath } from '../http/readPath.ts';
import { registerReadCacheMetrics } from '../http/readCacheMetrics.ts';
import { buildOperatorApp } from '../operatorApp.ts';
import { registerProjectorGauges } from '../projector/projectorMetrics.ts';
import { createProjectorQueue, createWake } from '../projector/queue.ts';
import { createActiveVersionReader } from '../store/control/activeVersionReader.ts';
import { createDomainDirectory } from '../readModels/domains/domainDirectory.ts';
import { systemClock } from '../shared/clock.ts';
import { hostOfUrl } from '../shared/hostName.ts';
import type { Logger } from '../shared/logger.ts';
import { startApiProcesses } from './apiProcesses.ts';
import type { Clients } from './clients.ts';
import { ClusterRegistry } from './clusterMetrics.ts';
import { createChangeHub } from '../readModels/embed/changeHub.ts';
import { pageAssets } from '../statusPage/assets.ts';
import { registerStreamGauge } from '../readModels/embed/streamGauge.ts';
import { loadStreamLimits } from '../readModels/embed/streamLimits.ts';
import { listen } from './listen.ts';
import type { PushDeps } from '../integrations/pushRoutes.ts';
import { registerProcessGauges } from './processGauges.ts';
import { createEmailChannel } from '../notify/email/emailChannel.ts';
import type { SignupDeps } from '../notify/email/signupDeps.ts';

type OnShutdown = (close: () => Promise<unknown>) => void;

/** The public API's listener in this process. */
export const servePublic = async (
  config: Config,
  {
    redis,
    log,
    push,
    signup,
  }: Readonly<{ redis: RedisClient; log: Logger; push?: PushDeps; signup?: SignupDeps }>,
  onShutdown: OnShutdown,
  registry: Registry,
) => {
  const active = createActiveVersionReader(redis, config.redisPrefix);
  // One subscriber per process: custom domains, live streams and the response cache share it.
  const readPath = createReadPath({ redis, prefix: config.redisPrefix, log });
  const { subscriber } = readPath;
  if (readPath.cache) registerReadCacheMetrics(registry, readPath.cache, readPath.memo);
  const domains = createDomainDirectory({
    redis,
    prefix: config.redisPrefix,
    log,
    readActive: active,
    subscriber,
  });
  const streams = createChangeHub({
    redis,
    prefix: config.redisPrefix,
    log,
    subscriber,
    limits: loadStreamLimits(),
  });
  registerStreamGauge(registry, streams);
  pageAssets(); // read (or bundled) now: no request ever waits for it
  const api = await listen(
    buildPublicHandler({
      redis,
      prefix: config.redisPrefix,
      config,
      log,
      registry,
      streams,
      domains,
      subscriber,
      requestLog: readPath.requestLog,
      ...(push ? { push } : {}),
      ...(signup ? { signup } : {}),
      ...(readPath.cache ? { cache: readPath.cache } : {}),
      ...(readPath.memo ? { memo: readPath.memo } : {}),
    }),
    config.port,
    config.host,
  );
  onShutdown(() => api.close());
  onShutdown(() => readPath.close());
  onShutdown(() => domains.close());
  onShutdown(() => streams.close()); // before api.close (closers run in reverse): open streams end
};

/** The operator listener (ingest, probes, projection status, metrics), once per machine. */
const serveOperator = async (
  config: Config,
  clients: Clients,
  onShutdown: OnShutdown,
  registry: Registry,
) => {
  const { db, readRedis: redis, queueRedis, log } = clients;
  const queue = createProjectorQueue(queueRedis, config.redisPrefix);
  registerProjectorGauges(registry, { db, redis, prefix: config.redisPrefix, log, queue: queue.queue });
  const wake = createWake(queue, createActiveVersionReader(redis, config.redisPrefix));
  const operator = await listen(
    buildOperatorApp({
      db,
      redis,
      prefix: config.redisPrefix,
      registry,
      log,
      clock: systemClock,
      ingest: {
        token: config.ingestToken,
        wake,
        ownHost: hostOfUrl(config.publicBaseUrl),
        publicBaseUrl: config.publicBaseUrl,
      },
    }),
    config.ingestPort,
    config.ingestHost,
  );
  onShutdown(() => queue.close());
  onShutdown(() => operator.close());
  log.info(
    { port: config.ingestPort, host: config.ingestHost },
    'operator listener (ingest, probes, metrics) listening',
  );
  return wake;
};

/** `processes`: how many processes serve the public API (WEB_CONCURRENCY); 1 serves it here. */
export const serve = async (config: Config, clients: Clients, onShutdown: OnShutdown, processes: number) => {
  const { log } = clients;
  const registry = processes > 1 ? new ClusterRegistry() : new Registry();
  collectProcessMetrics(registry);
  const wake = await serveOperator(config, clients, onShutdown, registry);
  // Read here even when other processes serve the public API: bad MAIL_* settings stop the start.
  const email = await createEmailChannel(config, { db: clients.db, redis: clients.readRedis, log });
  if (email) onShutdown(() => email.close());
  log.info(
    email === null
      ? 'email sign-up off: set MAIL_URL (docs/notifications.md, "Mail settings")'
      : `email sign-up on: ${email.signup.settings.url === null ? `mail written to ${email.signup.settings.folder ?? ''}` : 'mail sent by SMTP'}`,
  );
  if (processes > 1) {
    const api = await startApiProcesses(processes, log);
    registerProcessGauges(registry, processes, () => api.pids().length);
    onShutdown(() => api.stop()); // first of these closers: the API drains before the rest closes
    log.info({ port: api.port, host: config.host, processes, pids: api.pids() }, 'public API listening');
  } else {
    const push = { db: clients.db, wake, clock: systemClock, log };
    const signup = email ? { signup: email.signup } : {};
    await servePublic(config, { redis: clients.readRedis, log, push, ...signup }, onShutdown, registry);
    registerProcessGauges(registry, 1, () => 1);
    log.info({ port: config.port, host: config.host, processes }, 'public API listening');
  }
  if (!config.ingestToken)
    log.warn('ingest disabled: set INGEST_TOKEN (16+ characters) to accept POST /v1/events');
  return { wake, registry };
};
