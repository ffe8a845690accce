// Prometheus metrics of the projector (operations.md): events projected, batch durations, lag,
// queue depth and dead letters. The gauges read PostgreSQL and Redis when scraped, through
// guarded collectors: bounded, reported when they fail, one projection-status query per scrape.
import type { Queue, Worker } from 'bullmq';
import type { RedisClient } from '../store/redisClient.ts';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { guardedCollectors } from '../shared/guardedCollectors.ts';
import type { Logger } from '../shared/logger.ts';
import { registerOperatorGauges } from './operatorGauges.ts';
import { projectionLag } from './projectionStatus.ts';
import type { ProjectorJob } from './queue.ts';

export type ProjectorMetrics = Readonly<{
  onBatch: (info: { partition: number; events: number; seconds: number }) => void;
  onLoss: (kind: 'checkpoint' | 'page_state') => void;
  onRender: (pages: number) => void;
  /** Counts the worker's stalled, retried and finally failed jobs. */
  watchWorker: (worker: Worker<ProjectorJob, number>) => void;
}>;

type MetricSources = Readonly<{
  db: DatabasePool;
  redis: RedisClient;
  prefix: string;
  log: Logger;
  queue?: Queue;
}>;

const LAG_EVENTS = 'projector_lag_events';

/** The scraped gauges; registered once per registry (the API and the workers may share one). */
export const registerProjectorGauges = (registry: Registry, sources: MetricSources): void => {
  if (registry.getSingleMetric(LAG_EVENTS)) return;
  const collectors = guardedCollectors(registry, (collector, error) => {
    sources.log.warn({ collector, err: (error as Error).message }, 'metrics: collector failed');
  });
  const gauge = (name: string, help: string) =>
    new Gauge({ name, help, registers: [registry], collect: collectors.collect });
  const lagEvents = gauge(LAG_EVENTS, 'Events in the log not yet projected');
  const lagSeconds = gauge('projector_lag_seconds', 'Age of the oldest event not yet projected');
  const logPosition = gauge('projector_log_position', 'Position of the newest event in the log');
  const byPartition = (name: string, help: string) =>
    new Gauge({ name, help, labelNames: ['partition'], registers: [registry], collect: collectors.collect });
  const partitionEvents = byPartition(
    'projector_partition_lag_events',
    'Events of a partition not yet projected',
  );
  const partitionSeconds = byPartition(
    'projector_partition_lag_seconds',
    'Age of the oldest event of a partition not yet projected',
  );
  const quarantined = gauge(
    'projector_quarantined_pages',
    'Pages whose projection or render failed, kept as they were until they render again',
  );
  collectors.add('projection_lag', async () => {
    const { status, partitions } = await projectionLag(sources.db, sources.redis, sources.prefix);
    // Reset first: a rebuild to fewer partitions must not leave the old ones' series behind.
    partitionEvents.reset();
    partitionSeconds.reset();
    for (const { partition, lag_events, lag_seconds } of partitions) {
      partitionEvents.set({ partition: String(partition) }, lag_events);
      partitionSeconds.set({ partition: String(partition) }, lag_seconds);
    }
    logPosition.set(Number(status.log_position));
    lagEvents.set(status.lag_events);
    lagSeconds.set(status.lag_seconds);
    quarantined.set(status.quarantined_pages.length);
  });
  const { queue } = sources;
  if (queue) {
    const depth = gauge('projector_queue_depth', 'Projector jobs waiting, active or delayed');
    collectors.add('queue_depth', async () => {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
      depth.set(Object.values(counts).reduce((a, b) => a + b, 0));
    });
  }
  const deadLetters = gauge('projector_dead_letters', 'Events a projection could not apply (dead_letters)');
  collectors.add('dead_letters', async () => {
    deadLetters.set(
      Number(
        await sources.db.oneFirst(
          sql.type(z.object({ n: z.string() }))`SELECT count(*)::text AS n FROM dead_letters`,
        ),
      ),
    );
  });
  registerOperatorGauges(registry, collectors, sources);
};

export const createProjectorMetrics = (registry: Registry, sources: MetricSources): ProjectorMetrics => {
  const projected = new Counter({
    name: 'projector_events_projected_total',
    help: 'Events applied to the read models',
    labelNames: ['partition'],
    registers: [registry],
  });
  const batches = new Histogram({
    name: 'projector_batch_duration_seconds',
    help: 'Time to read, apply and commit one batch',
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const lost = new Counter({
    name: 'projector_models_lost_total',
    help: 'Times part of the active read models was found missing in Redis (then rebuilt)',
    labelNames: ['kind'],
    registers: [registry],
  });
  for (const kind of ['checkpoint', 'page_state'] as const) lost.inc({ kind }, 0); // exported from the start
  const counter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
  const renders = counter('projector_renders_total', 'Pages rendered (their read models written anew)');
  const stalled = counter('projector_jobs_stalled_total', 'Jobs whose worker stopped renewing their lock');
  const retried = counter('projector_jobs_retried_total', 'Failed jobs queued again for another attempt');
  const failed = counter('projector_jobs_failed_total', 'Jobs that failed their last attempt');
  registerProjectorGauges(registry, sources);
  return {
    onLoss: (kind) => lost.inc({ kind }),
    onRender: (pages) => renders.inc(pages),
    watchWorker: (worker) => {
      worker.on('stalled', () => stalled.inc());
      worker.on('failed', (job) => {
        if (job && job.attemptsMade < (job.opts.attempts ?? 1)) retried.inc();
        else failed.inc();
      });
    },
    onBatch: ({ partition, events, seconds }) => {
      projected.inc({ partition: String(partition) }, events);
      batches.observe(seconds);
    },
  };
};
