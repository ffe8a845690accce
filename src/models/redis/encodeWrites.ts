// Encodes write operations for commitWrites.lua: every key goes to KEYS (Redis's scripting
// contract, and what lets Redis Cluster route the script), each write names its keys by index.
// The writes travel as one JSON string: decoding one string in C is far cheaper than shipping
// tens of thousands of arguments.
import type { WriteOp } from './writeOps.ts';

export type EncodedWrites = Readonly<{ keys: string[]; writes: string }>;

type Encoded = (string | number)[];

const num = (n: number): string => (n === Number.NEGATIVE_INFINITY ? '-inf' : String(n));

/** Keys or fields per command: the script unpacks each command onto Lua's stack, which is bounded. */
export const MAX_COMMAND_ITEMS = 500;

const chunks = <T>(items: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / MAX_COMMAND_ITEMS) }, (_, i) =>
    items.slice(i * MAX_COMMAND_ITEMS, (i + 1) * MAX_COMMAND_ITEMS),
  );

/** A DEL of many keys or an HSET of many fields, split into commands of bounded size. */
const bounded = (w: WriteOp): WriteOp[] => {
  if (w.op === 'del' && w.keys.length > MAX_COMMAND_ITEMS)
    return chunks(w.keys).map((keys) => ({ ...w, keys }));
  if (w.op === 'hset' && w.fields.length > MAX_COMMAND_ITEMS)
    return chunks(w.fields).map((fields) => ({ ...w, fields }));
  return [w];
};

/** `firstKeys` take KEYS[1..n] in order (the checkpoint); each other key is listed once. */
export const encodeWrites = (firstKeys: readonly string[], ops: readonly WriteOp[]): EncodedWrites => {
  const keys = [...firstKeys];
  const index = new Map(keys.map((key, i) => [key, i + 1]));
  const k = (key: string): number => {
    let i = index.get(key);
    if (i === undefined) {
      i = keys.push(key);
      index.set(key, i);
    }
    return i;
  };
  const encode = (w: WriteOp): Encoded => {
    switch (w.op) {
      case 'set':
        return ['SET', k(w.key), String(w.value)];
      case 'del':
        return ['DEL', ...w.keys.map(k)];
      case 'hset':
        return ['HSET', k(w.key), ...w.fields.flatMap(([field, value]) => [field, String(value)])];
      case 'hdel':
        return ['HDEL', k(w.key), w.field];
      case 'hincrby':
        return ['HINCRBY', k(w.key), w.field, String(w.by)];
      case 'expire':
        return ['EXPIRE', k(w.key), String(w.seconds)];
      case 'zadd':
        return w.onlyLower
          ? ['ZADD', k(w.key), 'LT', num(w.score), w.member]
          : ['ZADD', k(w.key), num(w.score), w.member];
      case 'zrem':
        return ['ZREM', k(w.key), w.member];
      case 'zremFrom':
        return ['ZREMRANGEBYSCORE', k(w.key), num(w.min), '+inf'];
      case 'zremBetween':
        return ['ZREMRANGEBYSCORE', k(w.key), num(w.min), `(${num(w.below)}`];
      case 'zkeepFrom':
        return ['ZKEEPFROM', k(w.key), num(w.cutoff)];
      case 'sadd':
        return ['SADD', k(w.key), w.member];
      case 'srem':
        return ['SREM', k(w.key), w.member];
      case 'hsetVersioned':
        return [
          'HSETVERSIONED',
          k(w.key),
          w.channel,
          w.message,
          w.unchangedMessage ?? '',
          String(w.atLeast),
          ...w.fields.flatMap(([field, value]) => [field, value]),
        ];
      case 'publish':
        return ['PUBLISH', w.channel, w.message]; // a channel is not a key
    }
  };
  const writes = JSON.stringify(ops.flatMap(bounded).map(encode));
  return { keys, writes };
};
