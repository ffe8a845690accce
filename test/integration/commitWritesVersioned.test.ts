// The two writes behind the live streams: hsetVersioned writes only changed fields, stamps them with
// a revision that only grows, and publishes once per commit that changed something; publish sends
// a message on a channel that is not a key.
import { subscriberOf, type RedisClient } from '../../src/store/redisClient.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitWrites } from '../../src/store/control/commitWrites.ts';
import type { WriteOp } from '../../projections/store/writeOps.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';

describe('commitWrites: hsetVersioned and publish', () => {
  let redis: RedisClient;
  let listener: RedisClient;
  let prefix: string;
  let tag: string;
  const messages: string[] = [];
  const fence = () => ({ tag, expected: '0:0', next: null });
  const versioned = (atLeast: number, fields: [string, string][]): WriteOp => ({
    op: 'hsetVersioned',
    key: `${tag}:pg:a:embed`,
    fields,
    atLeast,
    channel: `${tag}:changes`,
    message: 'a',
  });
  /**
   * Commits, then a marker through the same channel, so every message of the commit has arrived.
   * The marker goes out in a commit too: on a cluster, only messages published by one node (the
   * partition's master) arrive in the order they were sent.
   */
  const commit = async (writes: WriteOp[]) => {
    expect(await commitWrites(redis, fence(), writes)).toBe(true);
    const marker: WriteOp = { op: 'publish', channel: `${tag}:changes`, message: 'marker' };
    expect(await commitWrites(redis, fence(), [marker])).toBe(true);
    await new Promise<void>((resolve) => {
      const check = () => (messages.at(-1) === 'marker' ? resolve() : setTimeout(check, 5));
      check();
    });
    return messages.splice(0).filter((m) => m !== 'marker');
  };

  beforeAll(async () => {
    redis = testRedis();
    listener = subscriberOf(redis, 'test-listener');
    prefix = freshRedisPrefix();
    tag = `${prefix}:{v1.p0}`;
    await redis.set(`${tag}:ckpt`, '0:0');
    listener.on('message', (_channel: string, message: string) => messages.push(message));
    await listener.subscribe(`${tag}:changes`);
  });
  afterAll(async () => {
    await dropRedisPrefix(redis, prefix);
    listener.disconnect();
    redis.disconnect();
  });

  it('stamps changed fields only, with revisions that only grow, and publishes once per change', async () => {
    const key = `${tag}:pg:a:embed`;
    expect(
      await commit([
        versioned(1000, [
          ['head', 'h1'],
          ['tail', 't1'],
        ]),
      ]),
    ).toEqual(['a']);
    expect(await redis.hgetall(key)).toEqual({
      head: 'h1',
      'head:rev': '1000',
      tail: 't1',
      'tail:rev': '1000',
      rev: '1000',
    });
    // Nothing changed: nothing written, nothing published.
    expect(
      await commit([
        versioned(2000, [
          ['head', 'h1'],
          ['tail', 't1'],
        ]),
      ]),
    ).toEqual([]);
    expect(await redis.hget(key, 'rev')).toBe('1000');
    // The clock went back (another worker's clock): the revision still grows, by one.
    expect(
      await commit([
        versioned(500, [
          ['head', 'h2'],
          ['tail', 't1'],
        ]),
      ]),
    ).toEqual(['a']);
    expect(await redis.hgetall(key)).toEqual({
      head: 'h2',
      'head:rev': '1001',
      tail: 't1',
      'tail:rev': '1000',
      rev: '1001',
    });
    // A later clock: the revision jumps to it (a rebuilt model continues above the old one).
    expect(await commit([versioned(1795348830000, [['tail', 't2']])])).toEqual(['a']);
    expect(await redis.hmget(key, 'tail:rev', 'rev')).toEqual(['1795348830000', '1795348830000']);
  });

  it('publishes on a channel that is not a key of the commit', async () => {
    expect(await commit([{ op: 'publish', channel: `${tag}:changes`, message: 'gone' }])).toEqual(['gone']);
    expect(await redis.exists(`${tag}:changes`)).toBe(0);
  });

  it('writes and publishes nothing when the fence does not hold', async () => {
    const stale = { tag, expected: 'other', next: null };
    expect(await commitWrites(redis, stale, [versioned(9e12, [['head', 'h9']])])).toBe(false);
    expect(await redis.hget(`${tag}:pg:a:embed`, 'head')).toBe('h2');
    expect(await commit([])).toEqual([]);
  });
});
