// Encodes write operations for commitWrites.lua, cut into calls of bounded keys and bytes
// (docs/read-models.md, "How writes reach Redis").
import { must } from '../shared/must.ts';
import type { WriteOp } from '../../projections/store/writeOps.ts';

/** `args`: the long values, sent as script arguments of their own (a write names one by its number). */
export type EncodedWrites = Readonly<{ keys: string[]; writes: string; args: string[] }>;

/**
 * Values longer than this (rendered documents) travel as arguments of their own: escaped into
 * the writes' JSON they would cost an escape here and a decode in the script, per byte.
 */
const OWN_ARG_CHARS = 512;

/** What a call sends: the writes' JSON, the keys and the long values. */
export const callBytes = (call: EncodedWrites): number =>
  call.writes.length +
  call.keys.reduce((n, key) => n + key.length, 0) +
  call.args.reduce((n, a) => n + a.length, 0);

type Encoded = (string | number)[];

const num = (n: number): string => (n === Number.NEGATIVE_INFINITY ? '-inf' : String(n));

/** Keys per script call (KEYS), the checkpoint included. */
export const MAX_CALL_KEYS = 1_000;
/** Bytes per script call: the writes' JSON and the keys. A single write larger than this travels alone. */
export const MAX_CALL_BYTES = 1_000_000;

/** Keys or fields per command: the script unpacks each command onto Lua's stack, which is bounded. */
const MAX_COMMAND_ITEMS = 500;

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

const encodeOp = (w: WriteOp, k: (key: string) => number, v: (value: string) => string | number): Encoded => {
  switch (w.op) {
    case 'set':
      return ['SET', k(w.key), v(String(w.value))];
    case 'del':
      return ['DEL', ...w.keys.map(k)];
    case 'hset':
      return ['HSET', k(w.key), ...w.fields.flatMap(([field, value]) => [field, v(String(value))])];
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
      return ['ZKEEPFROM', k(w.key), num(w.cutoff), ...(w.from ?? []).map(k)];
    case 'summarizeDown':
      return ['SUMMARIZEDOWN', k(w.key), k(w.summary), String(w.fromDay), String(w.toDay)];
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
        ...w.fields.flatMap(([field, value]) => [field, v(value)]),
      ];
    case 'publish':
      return ['PUBLISH', w.channel, w.message]; // a channel is not a key
  }
};

/**
 * Encodes `ops` in order as consecutive script calls, each within MAX_CALL_KEYS and MAX_CALL_BYTES
 * (`firstKeys`, the checkpoint, take KEYS[1..n] of every call; each other key is listed once per
 * call). Always at least one call.
 */
export const encodeCalls = (
  firstKeys: readonly string[],
  ops: readonly WriteOp[],
  caps: Readonly<{ keys: number; bytes: number }> = { keys: MAX_CALL_KEYS, bytes: MAX_CALL_BYTES },
): EncodedWrites[] => {
  const calls: EncodedWrites[] = [];
  const fixedBytes = firstKeys.reduce((n, key) => n + key.length, 0);
  let keys: string[] = [];
  let index = new Map<string, number>();
  let encoded: string[] = [];
  let args: string[] = [];
  let bytes = 0;
  const open = () => {
    keys = [...firstKeys];
    index = new Map(keys.map((key, i) => [key, i + 1]));
    encoded = [];
    args = [];
    bytes = fixedBytes + 2;
  };
  const close = () => calls.push({ keys, writes: `[${encoded.join(',')}]`, args });
  const v = (value: string): string | number => {
    if (value.length <= OWN_ARG_CHARS) return value;
    bytes += value.length;
    return args.push(value);
  };
  const k = (key: string): number => {
    let i = index.get(key);
    if (i === undefined) {
      i = keys.push(key);
      index.set(key, i);
      bytes += key.length;
    }
    return i;
  };
  open();
  for (const w of ops.flatMap(bounded)) {
    const declared = keys.length;
    const passed = args.length;
    let text = JSON.stringify(encodeOp(w, k, v));
    if ((keys.length > caps.keys || bytes + text.length + 1 > caps.bytes) && encoded.length > 0) {
      for (const key of keys.splice(declared)) index.delete(key); // they go with the next call
      args.splice(passed);
      close();
      open();
      text = JSON.stringify(encodeOp(w, k, v));
    }
    encoded.push(text);
    bytes += text.length + 1;
  }
  close();
  return calls;
};

/** `ops` as one script call, whatever its size (tests and callers that checked the size). */
export const encodeWrites = (firstKeys: readonly string[], ops: readonly WriteOp[]): EncodedWrites =>
  must(encodeCalls(firstKeys, ops, { keys: Infinity, bytes: Infinity })[0], 'the one call');
