// Every key matching a pattern, by SCAN (never KEYS: it blocks the server).
import type { Redis } from 'ioredis';

export const scanKeys = async (redis: Redis, pattern: string): Promise<string[]> => {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
};
