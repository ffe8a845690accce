// Node's own metrics (`process_*`, `nodejs_*`: CPU, memory, event-loop lag, GC) from prom-client,
// the same in every process of the service.
import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * How often the event loop's delay is sampled. prom-client's default, 10 ms, wakes a process 100
 * times a second: a quarter of a quiet worker's CPU (docs/scaling.md). The histogram's lag gauges
 * read the time between two samples: 0.1 s on an idle loop, more when something blocks it.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

export const collectProcessMetrics = (registry: Registry): void => {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
};
