// The operator listener (INGEST_HOST:INGEST_PORT, loopback by default): ingest, probes,
// projection status and Prometheus metrics. `npm run work` serves the same probes without
// ingest on WORKER_PROBE_PORT.
import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { DatabasePool } from 'slonik';
import { ingestRouter } from '../ingest/ingestRouter.ts';
import { projectionStatus } from '../projector/projectionStatus.ts';
import type { Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import { domainCheckRouter } from './domainCheck.ts';
import { probesRouter } from './probes.ts';

export type OperatorDeps = Readonly<{
  db: DatabasePool;
  redis: Redis;
  prefix: string;
  registry: Registry;
  log: Logger;
  clock: Clock;
  /** Absent: no ingest on this listener (the worker's probe port). */
  ingest?: { token: string | null; wake: (pages: string[]) => Promise<void>; ownHost?: string | null };
}>;

export const buildOperatorApp = (deps: OperatorDeps): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(probesRouter({ db: deps.db, redis: deps.redis }));
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
  app.use(domainCheckRouter(deps.db, deps.log));
  app.get('/v1/projection-status', async (_req, res) => {
    try {
      res.json(await projectionStatus(deps.db, deps.redis, deps.prefix));
    } catch (error) {
      deps.log.warn({ err: (error as Error).message }, 'projection status unavailable');
      res.status(503).json({ error: 'service unavailable' });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.type(deps.registry.contentType).send(await deps.registry.metrics());
  });
  app.use((_req, res) => void res.status(404).json({ error: 'not found' }));
  return app;
};
