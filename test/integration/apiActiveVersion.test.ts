// The active-version pointer is read at most once per TTL, shared by concurrent callers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import { activeKey } from '../../projections/store/control/keys.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';

let redis: RedisClient;
const prefix = freshRedisPrefix();
beforeAll(() => {
  redis = testRedis();
});
afterAll(async () => {
  await dropRedisPrefix(redis, prefix);
  await redis.quit();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createActiveVersionReader', () => {
  it('caches the pointer, a missing one too, for ttlMs', async () => {
    const read = createActiveVersionReader(redis, prefix, { ttlMs: 150 });
    expect(await read()).toBeNull();
    await redis.set(activeKey(prefix), '3:8');
    expect(await read()).toBeNull(); // still cached
    await sleep(200);
    expect(await read()).toEqual({ version: 3, partitions: 8 });
    await redis.set(activeKey(prefix), '4:8');
    expect(await read()).toEqual({ version: 3, partitions: 8 });
    await sleep(200);
    expect(await read()).toEqual({ version: 4, partitions: 8 });
  });

  it('makes one RedisClient call for concurrent callers', async () => {
    let calls = 0;
    const counting = new Proxy(redis, {
      get: (target, name, receiver) =>
        name === 'get'
          ? (...args: Parameters<RedisClient['get']>) => {
              calls += 1;
              return target.get(...args);
            }
          : (Reflect.get(target, name, receiver) as unknown),
    });
    const read = createActiveVersionReader(counting, prefix);
    await Promise.all(Array.from({ length: 20 }, () => read()));
    await read();
    expect(calls).toBe(1);
  });

  it('treats a malformed pointer as missing', async () => {
    await redis.set(activeKey(prefix), 'garbage');
    expect(await createActiveVersionReader(redis, prefix)()).toBeNull();
  });
});
