// Sends the projector's purges to every configured edge off the projection path: queued,
// coalesced, retried (docs/operations.md, "Edge caching").
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Logger } from '../shared/logger.ts';
import type { PurgeTarget } from './providers.ts';

type PurgerOptions = Readonly<{
  registry: Registry;
  log: Logger;
  coalesceMs?: number;
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** Told of each accepted call: seconds since its oldest key was queued (the bench's p99). */
  onPurged?: (provider: string, seconds: number) => void;
}>;

// Long enough that every API process has heard the commit's announcement before the edge refetches
// (the refetch must see the new bytes), short enough for the 1 s purge budget.
const COALESCE_MS = 150;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const createMetrics = (registry: Registry) => ({
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
    help: 'From the render commit to the edge accepting its purge',
    labelNames: ['provider'],
    buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  }),
  pending: new Gauge({
    name: 'edge_purge_pending_keys',
    help: 'Keys waiting to be purged (coalescing or retrying)',
    labelNames: ['provider'],
    registers: [registry],
  }),
});

/** When a key was first queued (ms: the latency counts from the oldest change) and whether hard. */
type Pending = { since: number; hard: boolean };

type Queue = {
  target: PurgeTarget;
  pending: Map<string, Pending>;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  /** Keys of the calls under way. */
  inFlight: number;
  failedInARow: number;
};

export const createEdgePurger = (targets: readonly PurgeTarget[], options: PurgerOptions) => {
  const coalesceMs = options.coalesceMs ?? COALESCE_MS;
  const firstRetryMs = options.firstRetryMs ?? FIRST_RETRY_MS;
  const maxRetryMs = options.maxRetryMs ?? MAX_RETRY_MS;
  const metrics = createMetrics(options.registry);
  const queues: Queue[] = targets.map((target) => ({
    target,
    pending: new Map(),
    timer: null,
    running: null,
    inFlight: 0,
    failedInARow: 0,
  }));
  // Every series from 0, so a first failure is an increase an alert can see.
  for (const provider of new Set(targets.map((t) => t.provider))) {
    for (const counter of [metrics.purges, metrics.failures, metrics.keys]) counter.labels(provider).inc(0);
    metrics.pending.labels(provider).set(0);
  }
  let closed = false;

  const backoffMs = (failures: number): number => {
    const base = Math.min(maxRetryMs, firstRetryMs * 2 ** (failures - 1));
    return Math.round(base * (0.8 + Math.random() * 0.4)); // jitter: instances do not retry in step
  };

  const schedule = (queue: Queue, delayMs: number) => {
    if (closed || queue.timer !== null || queue.running !== null || queue.pending.size === 0) return;
    queue.timer = setTimeout(() => {
      queue.timer = null;
      queue.running = send(queue).finally(() => {
        queue.running = null;
        schedule(queue, queue.failedInARow > 0 ? backoffMs(queue.failedInARow) : coalesceMs);
      });
    }, delayMs);
  };

  const enqueue = (queue: Queue, key: string, item: Pending) => {
    const queued = queue.pending.get(key);
    queue.pending.set(
      key,
      queued === undefined
        ? item
        : { since: Math.min(queued.since, item.since), hard: queued.hard || item.hard },
    );
  };

  /** Sends everything pending, hard keys first, a call per `maxKeys`; what fails goes back to pending. */
  const send = async (queue: Queue): Promise<void> => {
    const all = [...queue.pending];
    queue.pending.clear();
    queue.inFlight = all.length;
    try {
      await sendAll(queue, all);
    } finally {
      queue.inFlight = 0;
    }
  };

  const sendAll = async (queue: Queue, all: [string, Pending][]): Promise<void> => {
    const { provider, maxKeys } = queue.target;
    const chunks: Readonly<{ items: typeof all; hard: boolean }>[] = [];
    for (const hard of [true, false]) {
      const group = all.filter(([, p]) => p.hard === hard);
      for (let i = 0; i < group.length; i += maxKeys)
        chunks.push({ items: group.slice(i, i + maxKeys), hard });
    }
    for (const [c, { items, hard }] of chunks.entries()) {
      try {
        await queue.target.send(
          items.map(([key]) => key),
          hard,
        );
      } catch (error) {
        metrics.failures.inc({ provider });
        for (const [key, item] of chunks.slice(c).flatMap((chunk) => chunk.items)) enqueue(queue, key, item);
        queue.failedInARow += 1;
        if (queue.failedInARow === 1)
          options.log.warn({ provider, err: errorText(error) }, 'edge purge failed: retrying with backoff');
        metrics.pending.set({ provider }, queue.pending.size);
        return;
      }
      const oldest = Math.min(...items.map(([, item]) => item.since));
      metrics.purges.inc({ provider });
      metrics.keys.inc({ provider }, items.length);
      const seconds = (Date.now() - oldest) / 1000;
      metrics.seconds.observe({ provider }, seconds);
      options.onPurged?.(provider, seconds);
    }
    if (queue.failedInARow > 0)
      options.log.info({ provider, failures: queue.failedInARow }, 'edge purges recovered');
    queue.failedInARow = 0;
    metrics.pending.set({ provider }, queue.pending.size);
  };

  return {
    /** Queues `keys` for every edge (`hard`: no grace, for access changes); returns at once. */
    purge: (keys: readonly string[], hard = false): void => {
      if (closed || keys.length === 0) return;
      const item = { since: Date.now(), hard };
      for (const queue of queues) {
        for (const key of keys) enqueue(queue, key, item);
        metrics.pending.set({ provider: queue.target.provider }, queue.pending.size);
        schedule(queue, coalesceMs);
      }
    },
    /** Keys waiting (coalescing, in flight or retrying) over every edge. */
    pending: (): number => queues.reduce((sum, q) => sum + q.pending.size + q.inFlight, 0),
    /** Stops retrying; what is pending gets one last call (an edge's TTL bounds anything lost). */
    close: async (): Promise<void> => {
      closed = true;
      for (const queue of queues) {
        if (queue.timer !== null) clearTimeout(queue.timer);
        queue.timer = null;
      }
      await Promise.all(queues.map((q) => q.running ?? Promise.resolve()));
      await Promise.all(queues.map((q) => (q.pending.size > 0 ? send(q) : Promise.resolve())));
    },
  };
};

export type EdgePurger = ReturnType<typeof createEdgePurger>;
