// The one write path of the read models: fenced by the checkpoint, every key declared, nothing
// written when any write of a commit is malformed.
import type { RedisClient } from '../../src/store/redisClient.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitWrites, KeyOutsidePartition } from '../../src/store/control/commitWrites.ts';
import { withScripts } from '../../src/store/scripts.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';

describe('commitWrites', () => {
  let redis: RedisClient;
  let prefix: string;
  let tag: string;
  let ckpt: string;
  beforeAll(() => {
    redis = testRedis();
    prefix = freshRedisPrefix();
    tag = `${prefix}:{v1.p0}`;
    ckpt = `${tag}:ckpt`;
  });
  afterAll(async () => {
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
  });

  it('applies every kind of write and moves the checkpoint, only from the expected one', async () => {
    await redis.set(ckpt, '0:0');
    await redis.zadd(`${tag}:z`, 1, 'a', 2, 'b', 3, 'c', 10, 'd');
    const fence = { tag, expected: '0:0', next: '1:5' };
    const applied = await commitWrites(redis, fence, [
      { op: 'set', key: `${tag}:s`, value: 7 },
      {
        op: 'hset',
        key: `${tag}:h`,
        fields: [
          ['a', 1],
          ['b', 'x'],
        ],
      },
      { op: 'hincrby', key: `${tag}:h`, field: 'a', by: 4 },
      { op: 'hdel', key: `${tag}:h`, field: 'b' },
      { op: 'expire', key: `${tag}:h`, seconds: 100 },
      { op: 'zkeepFrom', key: `${tag}:z`, cutoff: 3 },
      { op: 'zadd', key: `${tag}:z`, score: 5, member: 'd', onlyLower: true },
      { op: 'sadd', key: `${tag}:set`, member: 'm' },
      { op: 'del', keys: [`${tag}:s`] },
    ]);
    expect(applied).toBe(true);
    expect(await redis.get(ckpt)).toBe('1:5');
    expect(await redis.hgetall(`${tag}:h`)).toEqual({ a: '5' });
    expect(await redis.zrange(`${tag}:z`, 0, -1, 'WITHSCORES')).toEqual(['b', '2', 'c', '3', 'd', '5']);
    expect(await redis.smembers(`${tag}:set`)).toEqual(['m']);
    expect(await redis.exists(`${tag}:s`)).toBe(0);
    expect(await commitWrites(redis, fence, [{ op: 'set', key: `${tag}:late`, value: 1 }])).toBe(false);
    expect(await redis.exists(`${tag}:late`)).toBe(0);
  });

  it('refuses a key outside the partition before calling Redis', async () => {
    const fence = { tag, expected: '1:5', next: null };
    await expect(
      commitWrites(redis, fence, [{ op: 'set', key: `${prefix}:other`, value: 1 }]),
    ).rejects.toThrow(KeyOutsidePartition);
  });

  it('writes nothing when a write is unknown or names an undeclared key', async () => {
    const scripted = withScripts(redis);
    const writes = (last: unknown[]) => JSON.stringify([['SET', 2, 'v'], last]);
    await expect(
      scripted.commitWrites(2, ckpt, `${tag}:a`, '1:5', '', writes(['FLUSHALL', 2])),
    ).rejects.toThrow(/unknown write/);
    await expect(
      scripted.commitWrites(2, ckpt, `${tag}:a`, '1:5', '', writes(['SET', 3, 'v'])),
    ).rejects.toThrow(/undeclared key/);
    expect(await redis.exists(`${tag}:a`)).toBe(0);
    expect(await redis.get(ckpt)).toBe('1:5');
  });

  it('keeps the newest member below the cutoff of several sets in the first one, and drops the rest', async () => {
    await redis.set(ckpt, '2:0');
    await redis.zadd(`${tag}:anchor`, 1, 'a');
    await redis.zadd(`${tag}:h0`, 2, 'b', 3, 'c');
    await redis.zadd(`${tag}:h1`, 5, 'e', 5, 'f', 6, 'g', 8, 'h');
    await redis.zadd(`${tag}:h2`, 9, 'i');
    const from = [`${tag}:h0`, `${tag}:h1`, `${tag}:h2`];
    const fence = { tag, expected: '2:0', next: '2:1' };
    const cutoff = 6;
    expect(await commitWrites(redis, fence, [{ op: 'zkeepFrom', key: `${tag}:anchor`, cutoff, from }])).toBe(
      true,
    );
    // Both members at 5 (the newest score below 6) move; everything else below 6 goes.
    expect(await redis.zrange(`${tag}:anchor`, 0, -1, 'WITHSCORES')).toEqual(['e', '5', 'f', '5']);
    expect(await redis.exists(`${tag}:h0`)).toBe(0);
    expect(await redis.zrange(`${tag}:h1`, 0, -1, 'WITHSCORES')).toEqual(['g', '6', 'h', '8']);
    expect(await redis.zrange(`${tag}:h2`, 0, -1, 'WITHSCORES')).toEqual(['i', '9']);

    // A newer member below the next cutoff replaces the anchor.
    const again = { tag, expected: '2:1', next: '2:2' };
    expect(
      await commitWrites(redis, again, [{ op: 'zkeepFrom', key: `${tag}:anchor`, cutoff: 7, from }]),
    ).toBe(true);
    expect(await redis.zrange(`${tag}:anchor`, 0, -1, 'WITHSCORES')).toEqual(['g', '6']);
    expect(await redis.zrange(`${tag}:h1`, 0, -1, 'WITHSCORES')).toEqual(['h', '8']);
  });
  it('stores long values (sent as arguments of their own) byte for byte', async () => {
    await redis.set(ckpt, '2:0');
    // Past the length that sends a value as its own argument, with characters of 2, 3 and 4 bytes.
    const long = `{"title":"Ünïcode — 状態 ${'✓'.repeat(300)} 🚦","body":"${'x'.repeat(2_000)}"}`;
    const fence = { tag, expected: '2:0', next: '2:1' };
    const applied = await commitWrites(redis, fence, [
      { op: 'set', key: `${tag}:long`, value: long },
      {
        op: 'hset',
        key: `${tag}:longs`,
        fields: [
          ['doc', long],
          ['short', 'é'],
        ],
      },
    ]);
    expect(applied).toBe(true);
    expect(await redis.get(`${tag}:long`)).toBe(long);
    expect(await redis.hgetall(`${tag}:longs`)).toEqual({ doc: long, short: 'é' });
    expect(await redis.strlen(`${tag}:long`)).toBe(Buffer.byteLength(long));
  });
});
