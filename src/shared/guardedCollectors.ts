// Gauges read from PostgreSQL and Redis when Prometheus scrapes, each read bounded in time and
// shared by the gauges it feeds, so a scrape always answers.
import { Gauge, type Registry } from 'prom-client';
import { settleWithin } from './settleWithin.ts';

export const COLLECTOR_TIMEOUT_MS = 1_000;
const FAILED = 'metrics_collector_failed';

export type GuardedCollectors = Readonly<{
  /** Registers a source; `read` sets the gauges it feeds. */
  add: (collector: string, read: () => Promise<void>) => void;
  /** The `collect` of every gauge fed by a source: waits for this scrape's reads. */
  collect: () => Promise<void>;
}>;

const byRegistry = new WeakMap<Registry, GuardedCollectors>();

/** One set per registry: later callers get the same one. */
export const guardedCollectors = (
  registry: Registry,
  onFailure: (collector: string, error: unknown) => void,
): GuardedCollectors => {
  const existing = byRegistry.get(registry);
  if (existing) return existing;
  const sources = new Map<string, () => Promise<void>>();
  const running = new Map<string, Promise<void>>();
  let scrape: Promise<void> | null = null;

  const readOne = async (collector: string, read: () => Promise<void>, failed: Gauge) => {
    let pending = running.get(collector);
    if (!pending) {
      pending = read().finally(() => running.delete(collector));
      running.set(collector, pending);
    }
    const outcome = await settleWithin(pending, COLLECTOR_TIMEOUT_MS);
    failed.set({ collector }, outcome.ok ? 0 : 1);
    if (!outcome.ok) onFailure(collector, outcome.error);
  };

  // Prometheus asks every metric of the registry at once: the first to ask starts the scrape's
  // reads, the others (this gauge included) wait for the same ones.
  const collect = (failed: Gauge) => {
    scrape ??= Promise.all([...sources].map(([name, read]) => readOne(name, read, failed))).then(() => {
      scrape = null;
    });
    return scrape;
  };
  const failed: Gauge = new Gauge({
    name: FAILED,
    help: '1 when a collector could not read its source within 1 s on the latest scrape',
    labelNames: ['collector'],
    registers: [registry],
    collect: () => collect(failed),
  });
  const collectors: GuardedCollectors = {
    add: (collector, read) => {
      sources.set(collector, read);
      failed.set({ collector }, 0);
    },
    collect: () => collect(failed),
  };
  byRegistry.set(registry, collectors);
  return collectors;
};
