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
});
