// The `{P}:active` pointer names the model version the API serves. It changes only on a rebuild
// flip, so each process reads it at most once per ttlMs; concurrent requests share one read.
import type { RedisClient } from '../redisClient.ts';
import { parseActive, type ActiveVersion } from '../../../projections/store/control/codec.ts';
import { activeKey } from '../../../projections/store/control/keys.ts';

export type ActiveVersionReader = () => Promise<ActiveVersion | null>;

/**
 * Caches the pointer (a missing one too, so an outage costs no extra load) for `ttlMs`.
 * @throws what the Redis client throws; a failed read is not cached
 */
export const createActiveVersionReader = (
  redis: RedisClient,
  prefix: string,
  { ttlMs = 1000 }: { ttlMs?: number } = {},
): ActiveVersionReader => {
  const key = activeKey(prefix);
  let cached: { value: ActiveVersion | null; until: number } | null = null;
  let inFlight: Promise<ActiveVersion | null> | null = null;

  const load = async (): Promise<ActiveVersion | null> => {
    try {
      const value = parseActive(await redis.get(key));
      cached = { value, until: Date.now() + ttlMs };
      return value;
    } finally {
      inFlight = null;
    }
  };

  return () => {
    if (cached !== null && Date.now() < cached.until) return Promise.resolve(cached.value);
    inFlight ??= load();
    return inFlight;
  };
};
