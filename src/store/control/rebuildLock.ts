// One rebuild at a time: a lock with a token, fenced
// (docs/architecture.md, "Versions and rebuilds").
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redisClient.ts';
import { withScripts } from '../scripts.ts';
import { rebuildLockKey } from '../../../projections/store/control/keys.ts';

export const LOCK_TTL_MS = 30_000;

/** `rebuild` builds a version; `collect` only deletes stale ones (short, bounded). */
type LockPurpose = 'rebuild' | 'collect';

export type RebuildLock = Readonly<{
  key: string;
  token: string;
  /** True once a renewal found the lock gone or held by someone else. */
  lost: () => boolean;
  release: () => Promise<void>;
}>;

/** What the current holder of the lock does; null when nobody holds it. */
export const lockHolderPurpose = async (redis: RedisClient, prefix: string): Promise<LockPurpose | null> => {
  const token = await redis.get(rebuildLockKey(prefix));
  if (token === null) return null;
  return token.startsWith('collect:') ? 'collect' : 'rebuild';
};

/** Takes the lock; null when another process holds it. */
export const takeRebuildLock = async (
  redis: RedisClient,
  prefix: string,
  { ttlMs = LOCK_TTL_MS, purpose = 'rebuild' }: { ttlMs?: number; purpose?: LockPurpose } = {},
): Promise<RebuildLock | null> => {
  const key = rebuildLockKey(prefix);
  const token = `${purpose}:${randomUUID()}`;
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
