// Deleting many keys without one huge command: UNLINK (the memory is freed off the main thread)
// in commands of at most UNLINK_CHUNK keys, so no delete blocks Redis or its readers for long.
import type { Redis } from 'ioredis';

export const UNLINK_CHUNK = 500;

export const unlinkInChunks = async (redis: Redis, keys: readonly string[]): Promise<number> => {
  let deleted = 0;
  for (let i = 0; i < keys.length; i += UNLINK_CHUNK)
    deleted += await redis.unlink(...keys.slice(i, i + UNLINK_CHUNK));
  return deleted;
};

/** Unlinks every key matching `pattern` (SCAN, never KEYS); `keep` spares the keys it accepts. */
export const unlinkMatching = async (
  redis: Redis,
  pattern: string,
  keep: (key: string) => boolean = () => false,
): Promise<number> => {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    deleted += await unlinkInChunks(
      redis,
      keys.filter((key) => !keep(key)),
    );
  } while (cursor !== '0');
  return deleted;
};
