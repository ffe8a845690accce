import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SCRIPT_READS, runPartitionRead } from '../../src/store/partitionReads.ts';
import {
  getBuffer,
  getString,
  hashFields,
  hashGetAll,
  hashGetMany,
  hashLength,
  keyExists,
  known,
  listRead,
  mapRead,
  runRead,
  setMembers,
  tupleRead,
  zsetByScore,
  zsetByScoreDesc,
  zsetCount,
  zsetScore,
  zsetScoredByScore,
  zsetScoredByScoreDesc,
  zsetSize,
} from '../../src/store/reads.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { withScripts } from '../../src/store/scripts.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';

describe('reads of one partition as script calls', () => {
  let redis: RedisClient;
  const prefix = freshRedisPrefix();
  const tag = `${prefix}:{v1.p3}`;
  const other = `${prefix}:{v1.p4}`;

  beforeAll(async () => {
    redis = testRedis();
    await redis.set(`${tag}:doc`, '{"title":"Ünïcode ✓ \\"quoted\\""}');
    await redis.hset(`${tag}:head`, { first: '1000', last_status: 'down', empty: '' });
    await redis.zadd(`${tag}:recent`, 10, 'a', 20, 'b', 30, 'c');
    await redis.sadd(`${tag}:dirty`, 'page-1');
    await redis.set(`${other}:doc`, 'elsewhere');
  });
  afterAll(async () => {
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
  });

  // Every kind of read a batch or render load makes, present and missing.
  const everyKind = () =>
    tupleRead([
      getString(`${tag}:doc`),
      getString(`${tag}:missing`),
      hashGetAll(`${tag}:head`),
      hashGetAll(`${tag}:missing`),
      hashGetMany(`${tag}:head`, ['last_status', 'nope', 'empty']),
      hashFields(`${tag}:head`),
      hashLength(`${tag}:head`),
      keyExists(`${tag}:doc`),
      keyExists(`${tag}:missing`),
      setMembers(`${tag}:dirty`),
      zsetSize(`${tag}:recent`),
      zsetCount(`${tag}:recent`, 15, '+inf'),
      zsetScore(`${tag}:recent`, 'b'),
      zsetScore(`${tag}:recent`, 'zz'),
      zsetByScore(`${tag}:recent`, '(10', 30),
      zsetByScoreDesc(`${tag}:recent`, '+inf', '-inf', 2),
      zsetScoredByScore(`${tag}:recent`, 0, 25),
      zsetScoredByScoreDesc(`${tag}:recent`, 25, '-inf', 1),
      mapRead(known(7), (n) => n * 2),
    ]);

  it('answers exactly what a pipeline answers, for every kind of read', async () => {
    const scripted = await runPartitionRead(redis, tag, everyKind());
    expect(scripted).toEqual(await runRead(redis, everyKind()));
    expect(scripted).toEqual([
      '{"title":"Ünïcode ✓ \\"quoted\\""}',
      null,
      { first: '1000', last_status: 'down', empty: '' },
      {},
      ['down', null, ''],
      ['first', 'last_status', 'empty'],
      3,
      true,
      false,
      ['page-1'],
      3,
      2,
      20,
      null,
      ['b', 'c'],
      ['c', 'b'],
      [
        ['a', '10'],
        ['b', '20'],
      ],
      [['b', '20']],
      14,
    ]);
  });

  it('splits many reads into calls of at most MAX_SCRIPT_READS, in order', async () => {
    const count = MAX_SCRIPT_READS * 2 + 17;
    await redis.mset(Object.fromEntries(Array.from({ length: count }, (_, i) => [`${tag}:n:${i}`, `v${i}`])));
    const values = await runPartitionRead(
      redis,
      tag,
      listRead(Array.from({ length: count }, (_, i) => getString(`${tag}:n:${i}`))),
    );
    expect(values).toEqual(Array.from({ length: count }, (_, i) => `v${i}`));
  });

  it('runs reads only: the script refuses any other command', async () => {
    await expect(withScripts(redis).readKeys(1, `${tag}:doc`, 'set', '1', 'overwritten')).rejects.toThrow(
      'not a read: set',
    );
    expect(await redis.get(`${tag}:doc`)).toBe('{"title":"Ünïcode ✓ \\"quoted\\""}');
  });

  it('goes as a pipeline when a read names another partition or a command scripts do not carry', async () => {
    const [mine, theirs] = await runPartitionRead(
      redis,
      tag,
      tupleRead([getString(`${tag}:doc`), getString(`${other}:doc`)]),
    );
    expect([mine, theirs]).toEqual(['{"title":"Ünïcode ✓ \\"quoted\\""}', 'elsewhere']);
    const bytes = await runPartitionRead(redis, tag, getBuffer(`${tag}:doc`));
    expect(Buffer.isBuffer(bytes)).toBe(true); // a script would have answered text
    expect(bytes?.toString()).toBe('{"title":"Ünïcode ✓ \\"quoted\\""}');
  });
});
