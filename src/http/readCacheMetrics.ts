// read_cache_requests_total{result}: how this API process's requests were answered by its
// response cache (docs/operations.md, "Metrics").
import { Counter, type Registry } from 'prom-client';
import type { ReadCache } from './readCache.ts';
import type { ResponseMemo } from './responseMemo.ts';

const NAME = 'read_cache_requests_total';

export const registerReadCacheMetrics = (registry: Registry, cache: ReadCache, memo?: ResponseMemo): void => {
  if (registry.getSingleMetric(NAME)) return;
  const counted = { hit: 0, stale: 0, miss: 0, bypassed: 0, memo: 0 };
  new Counter({
    name: NAME,
    help: "Reads of the API process's response cache, by how they were answered",
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const stats = cache.stats();
      const now = {
        hit: stats.hits,
        stale: stats.stale,
        miss: stats.misses,
        bypassed: stats.bypassed,
        memo: memo?.stats().hits ?? 0,
      };
      for (const result of Object.keys(now) as (keyof typeof now)[]) {
        this.inc({ result }, now[result] - counted[result]);
        counted[result] = now[result];
      }
    },
  });
};
