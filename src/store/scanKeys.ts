// Every key matching a pattern, by SCAN (never KEYS: it blocks the server). On a cluster every
// master is scanned: a pattern may match keys of many slots, and a slot being moved has keys on
// two masters at once. Only the rebuild's version GC and tests use this: no regular path scans.
import type { Redis } from 'ioredis';
import { isCluster, type RedisClient } from './redisClient.ts';

const scanNode = async (node: Redis, pattern: string, found: Set<string>): Promise<void> => {
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) found.add(key);
  } while (cursor !== '0');
};

export const scanKeys = async (redis: RedisClient, pattern: string): Promise<string[]> => {
  const found = new Set<string>();
  const nodes = isCluster(redis) ? redis.nodes('master') : [redis];
  for (const node of nodes) await scanNode(node, pattern, found);
  return [...found];
};
