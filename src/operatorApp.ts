// The operator listener (INGEST_HOST:INGEST_PORT, loopback by default): ingest, probes,
// projection status, the autoscaler's figures and Prometheus metrics. `npm run work` serves the same probes without
// ingest on WORKER_PROBE_PORT.
import express, { type Express } from 'express';
import type { RedisClient } from './store/redisClient.ts';
import type { Registry } from 'prom-client';
import type { DatabasePool } from 'slonik';
import { errorHandler, notFoundHandler, sendError } from './http/errors.ts';
import { domainCheckRouter } from './http/domainCheck.ts';
import { probesRouter } from './http/probes.ts';
import { ingestRouter } from './ingest/ingestRouter.ts';
import { alertRoutes } from './integrations/alertRoutes.ts';
import { integrationMetrics } from './integrations/integrationMetrics.ts';
import { tokenRoutes } from './integrations/tokenRoutes.ts';
import { subscriberRoutes } from './notify/operator/subscriberRoutes.ts';
import type { Wake } from './projector/queue.ts';
import { autoscaleFigures } from './projector/autoscaleFigures.ts';
import { projectionStatus } from './projector/projectionStatus.ts';
import type { Clock } from './shared/clock.ts';
import type { Logger } from './shared/logger.ts';

type OperatorDeps = Readonly<{
  db: DatabasePool;
  redis: RedisClient;
  prefix: string;
  registry: Registry;
  log: Logger;
  clock: Clock;
  /** Absent: no ingest on this listener (the worker's probe port). */
  ingest?: { token: string | null; wake: Wake; ownHost?: string | null; publicBaseUrl?: string };
}>;

export const buildOperatorApp = (deps: OperatorDeps): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(probesRouter({ db: deps.db, redis: deps.redis, prefix: deps.prefix }));
  if (deps.ingest)
    app.use(
      ingestRouter({
        db: deps.db,
        ingestToken: deps.ingest.token,
        clock: deps.clock,
        log: deps.log,
        wake: deps.ingest.wake,
        ownHost: deps.ingest.ownHost ?? null,
      }),
    );
  if (deps.ingest) {
    const { token, wake, publicBaseUrl } = deps.ingest;
    const metrics = integrationMetrics(deps.registry);
    app.use(
      alertRoutes({ db: deps.db, ingestToken: token, clock: deps.clock, log: deps.log, wake, metrics }),
    );
    app.use(tokenRoutes({ db: deps.db, ingestToken: token, publicBaseUrl: publicBaseUrl ?? '' }));
    app.use(subscriberRoutes({ db: deps.db, ingestToken: token, log: deps.log }));
  }
  app.use(domainCheckRouter(deps.db, deps.log));
  app.get('/v1/projection-status', async (_req, res) => {
    try {
      res.json(await projectionStatus(deps.db, deps.redis, deps.prefix));
    } catch (error) {
      deps.log.warn({ err: (error as Error).message }, 'projection status unavailable');
      sendError(res, 'service_unavailable');
    }
  });
  // KEDA's metrics-api scaler reads this (docs/deploy.md): the projection backlog, not the queue.
  app.get('/v1/autoscale', async (_req, res) => {
    try {
      res.set('Cache-Control', 'no-store').json(await autoscaleFigures(deps.db, deps.redis, deps.prefix));
    } catch (error) {
      deps.log.warn({ err: (error as Error).message }, 'autoscale figures unavailable');
      sendError(res, 'service_unavailable');
    }
  });
  app.get('/metrics', async (_req, res) => {
    try {
      // Collectors report their own failures; only a bug can reach the catch.
      const text = await deps.registry.metrics();
      res.set('Cache-Control', 'no-store').type(deps.registry.contentType).send(text);
    } catch (error) {
      deps.log.error({ err: error }, 'metrics unavailable');
      sendError(res, 'internal');
    }
  });
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
};
