import { describe, expect, it } from 'vitest';
import {
  callBytes,
  encodeCalls,
  encodeWrites,
  MAX_CALL_BYTES,
  MAX_CALL_KEYS,
  type EncodedWrites,
} from '../../../src/store/encodeWrites.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';

/** The commands of calls with their keys named, not indexed: what Redis ends up running. */
const resolved = (calls: readonly EncodedWrites[]) =>
  calls.flatMap((call) =>
    (JSON.parse(call.writes) as (string | number)[][]).map((command) => {
      const [verb, ...rest] = command;
      const keyCount =
        verb === 'DEL' ? rest.length : verb === 'PUBLISH' ? 0 : verb === 'SUMMARIZEDOWN' ? 2 : 1;
      const named = (x: string | number, i: number) =>
        i < keyCount ? call.keys[(x as number) - 1] : typeof x === 'number' ? call.args[x - 1] : x;
      return [verb, ...rest.map(named)];
    }),
  );

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

  it('cuts writes into calls of at most MAX_CALL_KEYS keys and MAX_CALL_BYTES bytes, in order', () => {
    const body = 'x'.repeat(30_000); // an availability body of a year
    const ops: WriteOp[] = [];
    for (let m = 0; m < 1_500; m++) {
      ops.push({ op: 'hset', key: `t:avail:${String(m)}`, fields: [['1y', body]] });
      ops.push({ op: 'srem', key: 't:dirty:avail', member: `p|${String(m)}` });
    }
    ops.push({ op: 'del', keys: Array.from({ length: 2_500 }, (_, i) => `t:gone:${String(i)}`) });
    const calls = encodeCalls(['t:ckpt'], ops);
    for (const call of calls) {
      expect(call.keys.length).toBeLessThanOrEqual(MAX_CALL_KEYS);
      expect(callBytes(call)).toBeLessThanOrEqual(MAX_CALL_BYTES);
      expect(call.keys[0]).toBe('t:ckpt');
    }
    expect(calls.length).toBeGreaterThanOrEqual(Math.ceil((1_500 * 30_000) / MAX_CALL_BYTES));
    expect(resolved(calls)).toEqual(resolved([encodeWrites(['t:ckpt'], ops)]));
  });

  it('sends a write larger than a call alone, and an empty list as one empty call', () => {
    const huge: WriteOp = { op: 'set', key: 't:big', value: 'y'.repeat(MAX_CALL_BYTES + 10) };
    const calls = encodeCalls(
      ['t:ckpt'],
      [{ op: 'set', key: 't:a', value: 1 }, huge, { op: 'set', key: 't:b', value: 2 }],
    );
    expect(calls.map((c) => c.keys)).toEqual([
      ['t:ckpt', 't:a'],
      ['t:ckpt', 't:big'],
      ['t:ckpt', 't:b'],
    ]);
    expect(encodeCalls(['t:ckpt'], [])).toEqual([{ keys: ['t:ckpt'], writes: '[]', args: [] }]);
  });

  it('sends values longer than 512 characters as arguments of their own, named by their number', () => {
    const doc = `{"a":"${'q'.repeat(600)}"}`;
    const call = encodeWrites(
      ['t:ckpt'],
      [
        { op: 'set', key: 't:short', value: 'x'.repeat(512) },
        {
          op: 'hset',
          key: 't:h',
          fields: [
            ['f', doc],
            ['g', 'small'],
          ],
        },
        { op: 'set', key: 't:long', value: doc + doc },
      ],
    );
    expect(call.args).toEqual([doc, doc + doc]);
    expect(JSON.parse(call.writes)).toEqual([
      ['SET', 2, 'x'.repeat(512)],
      ['HSET', 3, 'f', 1, 'g', 'small'],
      ['SET', 4, 2],
    ]);
    const keys = ['t:ckpt', 't:short', 't:h', 't:long'].join('').length;
    expect(callBytes(call)).toBe(call.writes.length + keys + doc.length * 3);
  });

  it('carries every string exactly: quotes, backslashes, control characters and non-ASCII text', () => {
    const awkward = [
      'a"b',
      'back\\slash',
      'line\nbreak\ttab',
      'nul\u0000',
      'é ü 日本',
      '😀',
      '',
      '{"json":[1]}',
    ];
    const { writes } = encodeWrites(
      ['t:ckpt'],
      awkward.flatMap((text): WriteOp[] => [
        { op: 'set', key: 't:s', value: text },
        { op: 'hset', key: 't:h', fields: [[text, text]] },
        { op: 'zadd', key: 't:z', score: 1, member: text },
        { op: 'publish', channel: text, message: text },
      ]),
    );
    expect(JSON.parse(writes)).toEqual(
      awkward.flatMap((text) => [
        ['SET', 2, text],
        ['HSET', 3, text, text],
        ['ZADD', 4, '1', text],
        ['PUBLISH', text, text],
      ]),
    );
  });
});
