// Deleting many keys without one huge command: UNLINK (the memory is freed off the main thread)
// in commands of at most UNLINK_CHUNK keys, so no delete blocks Redis or its readers for long.
// Each command holds keys of one hash tag only, so on a Redis Cluster it stays in one slot.
import type { RedisClient } from './redisClient.ts';
import { scanKeys } from './scanKeys.ts';

const UNLINK_CHUNK = 500;

/** The hash tag Redis Cluster hashes (the first non-empty `{…}`), or the whole key. */
const hashTagOf = (key: string): string => {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
};

export const unlinkInChunks = async (redis: RedisClient, keys: readonly string[]): Promise<number> => {
  const byTag = new Map<string, string[]>();
  for (const key of keys) {
    const tag = hashTagOf(key);
    const group = byTag.get(tag) ?? [];
    group.push(key);
    byTag.set(tag, group);
  }
  let deleted = 0;
  for (const group of byTag.values())
    for (let i = 0; i < group.length; i += UNLINK_CHUNK)
      deleted += await redis.unlink(...group.slice(i, i + UNLINK_CHUNK));
  return deleted;
};

/** Unlinks every key matching `pattern` (SCAN on every master, never KEYS); `keep` spares keys. */
export const unlinkMatching = async (
  redis: RedisClient,
  pattern: string,
  keep: (key: string) => boolean = () => false,
): Promise<number> =>
  unlinkInChunks(
    redis,
    (await scanKeys(redis, pattern)).filter((key) => !keep(key)),
  );
