// Failed private-page tokens, counted per client and page in Redis, so guessing runs at a few
// tries a minute however many API processes answer (docs/operations.md, "Private-page tokens").
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { parseSettings } from '../config.ts';
import type { RedisClient } from '../store/redisClient.ts';
import { withScripts } from '../store/scripts.ts';
import { ApiError } from './errors.ts';

export type TokenThrottleSettings = Readonly<{ maxFailures: number; windowMs: number }>;

const Env = z.object({
  TOKEN_FAILURES_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10),
  TOKEN_FAILURES_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(60),
});

/** @throws ConfigError naming the bad variables */
export const loadTokenThrottleSettings = (env: NodeJS.ProcessEnv = process.env): TokenThrottleSettings => {
  const e = parseSettings(Env, env);
  return {
    maxFailures: e.TOKEN_FAILURES_MAX,
    windowMs: e.TOKEN_FAILURES_WINDOW_S * 1000,
  };
};

/**
 * The counter of one client's wrong tokens for one page. A digest of both: neither the address
 * nor the page's token hash is kept in Redis; its own hash tag keeps it one key on a Cluster.
 */
export const tokenFailuresKey = (prefix: string, client: string, tokenHash: string): string =>
  `${prefix}:token-failures:{${createHash('sha256').update(`${client}\n${tokenHash}`).digest('hex').slice(0, 32)}}`;

export type TokenThrottleDeps = Readonly<{
  redis: RedisClient;
  prefix: string;
  settings: TokenThrottleSettings;
  now?: () => number;
}>;

export const createTokenThrottle = ({ redis, prefix, settings, now = Date.now }: TokenThrottleDeps) => {
  const scripted = withScripts(redis);
  // Counters Redis found full, until their window ends: a fixed window never empties early, so
  // this process refuses them again without asking (fewer round trips under a guessing run).
  const fullUntil = new LRUCache<string, number>({ max: 100_000 });
  const refuse = (waitMs: number): never => {
    throw new ApiError('too_many_requests', { retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) });
  };
  return {
    /**
     * Lets `client` present a token for the page whose token hash is `tokenHash`, counting it
     * when `wrong`; a store outage fails like the page's read would.
     * @throws ApiError too_many_requests while the client's wrong tokens for the page fill the window
     */
    attempt: async (client: string, tokenHash: string, wrong: boolean): Promise<void> => {
      const key = tokenFailuresKey(prefix, client, tokenHash);
      const until = fullUntil.get(key);
      if (until !== undefined && until > now()) refuse(until - now());
      const waitMs = await scripted.tokenAttempt(
        key,
        settings.maxFailures,
        settings.windowMs,
        wrong ? '1' : '0',
      );
      if (waitMs > 0) {
        fullUntil.set(key, now() + waitMs);
        refuse(waitMs);
      }
    },
  };
};

export type TokenThrottle = ReturnType<typeof createTokenThrottle>;

/** Where admit finds the app's throttle: app.locals, set once by buildApp. */
export const THROTTLE_LOCAL = 'tokenThrottle';
