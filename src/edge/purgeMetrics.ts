// The edge purge's series on the worker's /metrics (docs/operations.md, "Metrics"): every one
// exists from the start, at 0, so an alert or a dashboard panel has a series before the first purge.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { PurgeTarget } from './providers.ts';

export const createPurgeMetrics = (registry: Registry, targets: readonly PurgeTarget[]) => {
  const metrics = {
    purges: new Counter({
      name: 'edge_purges_total',
      help: 'Purge calls the edge accepted',
      labelNames: ['provider'],
      registers: [registry],
    }),
    failures: new Counter({
      name: 'edge_purge_failures_total',
      help: 'Purge calls that failed (retried with backoff)',
      labelNames: ['provider'],
      registers: [registry],
    }),
    keys: new Counter({
      name: 'edge_purge_keys_total',
      help: 'Surrogate keys purged',
      labelNames: ['provider'],
      registers: [registry],
    }),
    seconds: new Histogram({
      name: 'edge_purge_seconds',
      help: 'From the commit that queued a purge to the edge accepting it',
      labelNames: ['provider'],
      buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 2, 5, 10, 30, 60],
      registers: [registry],
    }),
    pending: new Gauge({
      name: 'edge_purge_pending_keys',
      help: 'Purges waiting in the outboxes of the active read models (queued, in flight or retrying)',
      registers: [registry],
    }),
    oldest: new Gauge({
      name: 'edge_purge_oldest_pending_seconds',
      help: 'Age of the oldest purge waiting in the outboxes (0: none)',
      registers: [registry],
    }),
  };
  for (const provider of new Set(targets.map((t) => t.provider))) {
    for (const counter of [metrics.purges, metrics.failures, metrics.keys]) counter.labels(provider).inc(0);
    metrics.seconds.zero({ provider });
  }
  metrics.pending.set(0);
  metrics.oldest.set(0);
  return metrics;
};
