import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectProcessMetrics } from '../../src/runtime/processMetrics.ts';

/** A gauge as a scrape reads it (the lag gauges are set when the lag metric is collected). */
const gauge = async (registry: Registry, name: string): Promise<number> => {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  if (!metric) throw new Error(`${name} is not registered`);
  return metric.values[0]!.value;
};

describe('collectProcessMetrics', () => {
  it("registers Node's metrics and samples the event loop every 100 ms, not prom-client's 10 ms", async () => {
    const registry = new Registry();
    collectProcessMetrics(registry);
    await sleep(450); // a few samples: the shortest is about the sampling period
    const shortest = await gauge(registry, 'nodejs_eventloop_lag_min_seconds');
    // A timer may fire a fraction of a millisecond early; 50 ms still tells 100 ms from 10 ms.
    expect(shortest).toBeGreaterThan(0.05);
    expect(shortest).toBeLessThan(10); // a sample was taken (an empty histogram's minimum is huge)
    expect(await gauge(registry, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });
});
