// Settings of the public API's request path (docs/operations.md): which requests are logged, and
// the in-process response cache. Read by `npm run serve` / `npm start` from the environment.
import { z } from 'zod';
import { parseSettings } from '../config.ts';
import type { RequestLogPolicy } from './requestLog.ts';

const Env = z.object({
  LOG_REQUESTS: z.enum(['errors', 'all', 'off']).default('errors'),
  LOG_SLOW_MS: z.coerce.number().int().min(0).default(500),
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  READ_CACHE_MAX_MB: z.coerce.number().int().min(1).max(65_536).default(64),
});

type ReadPathSettings = Readonly<{
  requestLog: RequestLogPolicy;
  /** 0: no response cache. */
  cacheTtlMs: number;
  cacheMaxBytes: number;
}>;

/** @throws ConfigError naming the bad variables */
export const loadReadPathSettings = (env: NodeJS.ProcessEnv = process.env): ReadPathSettings => {
  const e = parseSettings(Env, env);
  return {
    requestLog: { lines: e.LOG_REQUESTS, slowMs: e.LOG_SLOW_MS },
    cacheTtlMs: e.READ_CACHE_TTL_MS,
    cacheMaxBytes: e.READ_CACHE_MAX_MB * 1024 * 1024,
  };
};
