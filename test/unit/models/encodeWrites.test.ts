import { describe, expect, it } from 'vitest';
import { encodeWrites } from '../../../src/models/redis/encodeWrites.ts';

describe('encodeWrites', () => {
  it('declares every key once, after the fixed ones, and names keys by their KEYS index', () => {
    const { keys, writes } = encodeWrites(
      ['t:ckpt'],
      [
        { op: 'set', key: 't:a', value: 1 },
        { op: 'del', keys: ['t:b', 't:a'] },
        { op: 'hset', key: 't:b', fields: [['f', 2]] },
        { op: 'zadd', key: 't:z', score: -5, member: 'm', onlyLower: true },
        { op: 'zremFrom', key: 't:z', min: Number.NEGATIVE_INFINITY },
        { op: 'zkeepFrom', key: 't:z', cutoff: 9 },
        { op: 'hincrby', key: 't:ckpt', field: 'x', by: 3 },
      ],
    );
    expect(keys).toEqual(['t:ckpt', 't:a', 't:b', 't:z']);
    expect(JSON.parse(writes)).toEqual([
      ['SET', 2, '1'],
      ['DEL', 3, 2],
      ['HSET', 3, 'f', '2'],
      ['ZADD', 4, 'LT', '-5', 'm'],
      ['ZREMRANGEBYSCORE', 4, '-inf', '+inf'],
      ['ZKEEPFROM', 4, '9'],
      ['HINCRBY', 1, 'x', '3'],
    ]);
  });

  it('names the sets a zkeepFrom trims after its cutoff', () => {
    const { keys, writes } = encodeWrites(
      ['t:ckpt'],
      [{ op: 'zkeepFrom', key: 't:anchor', cutoff: 7200, from: ['t:h1', 't:h2'] }],
    );
    expect(keys).toEqual(['t:ckpt', 't:anchor', 't:h1', 't:h2']);
    expect(JSON.parse(writes)).toEqual([['ZKEEPFROM', 2, '7200', 3, 4]]);
  });

  it('splits a DEL of many keys and an HSET of many fields into commands of at most 500', () => {
    const many = Array.from({ length: 1201 }, (_, i) => `t:k${String(i)}`);
    const { keys, writes } = encodeWrites(
      ['t:ckpt'],
      [
        { op: 'del', keys: many },
        { op: 'hset', key: 't:h', fields: many.map((f): [string, number] => [f, 1]) },
        { op: 'zremBetween', key: 't:z', min: 5, below: 9 },
      ],
    );
    expect(keys).toHaveLength(1 + 1201 + 2);
    const commands = JSON.parse(writes) as (string | number)[][];
    expect(commands.map((c) => [c[0], c.length])).toEqual([
      ['DEL', 501],
      ['DEL', 501],
      ['DEL', 202],
      ['HSET', 1002],
      ['HSET', 1002],
      ['HSET', 404],
      ['ZREMRANGEBYSCORE', 4],
    ]);
    expect(commands.at(-1)).toEqual(['ZREMRANGEBYSCORE', 1204, '5', '(9']);
  });
});
