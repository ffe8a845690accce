// One rebuild at a time: a lock with a token, fenced. It is renewed and released only while it
// still holds our token (compare in a script), and the pointer flips only for its holder
// (activate.lua), so a rebuild that paused past the lock's expiry can neither extend a newer
// rebuild's lock nor activate its own, older build.
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/redisClient.ts';
import { withScripts } from '../redis/scripts.ts';
import { rebuildLockKey } from './keys.ts';

export const LOCK_TTL_MS = 30_000;

export type RebuildLock = Readonly<{
  key: string;
  token: string;
  /** True once a renewal found the lock gone or held by someone else. */
  lost: () => boolean;
  release: () => Promise<void>;
}>;

/** Takes the lock; null when another process holds it. */
export const takeRebuildLock = async (
  redis: RedisClient,
  prefix: string,
  { ttlMs = LOCK_TTL_MS }: { ttlMs?: number } = {},
): Promise<RebuildLock | null> => {
  const key = rebuildLockKey(prefix);
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return null;
  let lost = false;
  const renew = async () => {
    const renewed = await withScripts(redis).renewLock(key, token, ttlMs);
    if (renewed === 0) {
      lost = true;
      clearInterval(timer);
    }
  };
  // A failed renewal (Redis unreachable for a moment) is retried on the next tick; the flip
  // checks the token again anyway.
  const timer = setInterval(() => void renew().catch(() => undefined), ttlMs / 3);
  return {
    key,
    token,
    lost: () => lost,
    release: async () => {
      clearInterval(timer);
      await withScripts(redis).releaseLock(key, token);
    },
  };
};
