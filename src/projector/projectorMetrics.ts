// Prometheus metrics of the projector (operations.md): events projected, batch durations, lag,
// queue depth and dead letters. Gauges are computed when scraped.
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { projectionStatus } from './projectionStatus.ts';

export type ProjectorMetrics = Readonly<{
  onBatch: (info: { partition: number; events: number; seconds: number }) => void;
}>;

export const createProjectorMetrics = (
  registry: Registry,
  sources: { db: DatabasePool; redis: Redis; prefix: string; queue?: Queue },
): ProjectorMetrics => {
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
  const lagGauge = (
    name: string,
    help: string,
    pick: (s: Awaited<ReturnType<typeof projectionStatus>>) => number,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(pick(await projectionStatus(sources.db, sources.redis, sources.prefix)));
      },
    });
  lagGauge('projector_lag_events', 'Events in the log not yet projected', (s) => s.lag_events);
  lagGauge('projector_lag_seconds', 'Age of the oldest event not yet projected', (s) => s.lag_seconds);
  lagGauge(
    'projector_quarantined_pages',
    'Pages whose projection or render failed, kept as they were until they render again',
    (s) => s.quarantined_pages.length,
  );
  new Gauge({
    name: 'projector_queue_depth',
    help: 'Projector jobs waiting, active or delayed',
    registers: [registry],
    async collect() {
      const counts = sources.queue ? await sources.queue.getJobCounts('waiting', 'active', 'delayed') : {};
      this.set(Object.values(counts).reduce((a, b) => a + b, 0));
    },
  });
  new Gauge({
    name: 'projector_dead_letters',
    help: 'Events a projection could not apply (table dead_letters)',
    registers: [registry],
    async collect() {
      this.set(
        Number(
          await sources.db.oneFirst(
            sql.type(z.object({ n: z.string() }))`SELECT count(*)::text AS n FROM dead_letters`,
          ),
        ),
      );
    },
  });
  return {
    onBatch: ({ partition, events, seconds }) => {
      projected.inc({ partition: String(partition) }, events);
      batches.observe(seconds);
    },
  };
};
