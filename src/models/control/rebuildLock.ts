// One rebuild at a time: a lock with a token, kept alive while the rebuild runs and released
// only by its holder.
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/redisClient.ts';
import { withScripts } from '../redis/scripts.ts';
import { rebuildLockKey } from './keys.ts';

const LOCK_TTL_MS = 30_000;

/** Takes the lock; null when another process holds it. Returns the release function. */
export const takeRebuildLock = async (
  redis: RedisClient,
  prefix: string,
): Promise<(() => Promise<void>) | null> => {
  const key = rebuildLockKey(prefix);
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') return null;
  const timer = setInterval(
    () => void redis.pexpire(key, LOCK_TTL_MS).catch(() => undefined),
    LOCK_TTL_MS / 3,
  );
  return async () => {
    clearInterval(timer);
    await withScripts(redis).releaseLock(key, token);
  };
};
