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

const num = (n: number): string => (n === Number.NEGATIVE_INFINITY ? '-inf' : String(n));

/**
 * A JSON string literal. Most strings here (fields, members, numbers) are plain ASCII that needs
 * no escaping: quoted directly, they skip JSON.stringify's call, which was most of a write's cost.
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const str = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

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

/**
 * A DEL of many keys or an HSET of many fields, split into commands of bounded size (a loop, not
 * flatMap: V8's flatMap cost more than the encoding itself).
 */
const bounded = (ops: readonly WriteOp[]): WriteOp[] => {
  const out: WriteOp[] = [];
  for (const w of ops) {
    if (w.op === 'del' && w.keys.length > MAX_COMMAND_ITEMS)
      for (const keys of chunks(w.keys)) out.push({ ...w, keys });
    else if (w.op === 'hset' && w.fields.length > MAX_COMMAND_ITEMS)
      for (const fields of chunks(w.fields)) out.push({ ...w, fields });
    else out.push(w);
  }
  return out;
};

/**
 * One script call being filled: its keys (by KEYS index), long values (by argument number) and
 * the commands' JSON so far. A class, not closures made per call: its methods are compiled once
 * and stay compiled, where per-call closures were compiled again after each major GC.
 */
class Call {
  readonly keys: string[];
  private readonly index: Map<string, number>;
  readonly args: string[] = [];
  encoded = ''; // comma-separated (appending beats a join)
  bytes: number;

  constructor(firstKeys: readonly string[], fixedBytes: number) {
    this.keys = [...firstKeys];
    this.index = new Map(this.keys.map((key, i) => [key, i + 1]));
    this.bytes = fixedBytes + 2;
  }

  /** The KEYS index of `key`, declaring it on first use. */
  k(key: string): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.keys.push(key);
      this.index.set(key, i);
      this.bytes += key.length;
    }
    return i;
  }

  /** A value as JSON, or the number of its own argument when long. */
  v(value: string): string {
    if (value.length <= OWN_ARG_CHARS) return str(value);
    this.bytes += value.length;
    return String(this.args.push(value));
  }

  /** Forgets the keys and arguments declared from `keys`/`args` on (they go with the next call). */
  undeclare(keys: number, args: number): void {
    for (const key of this.keys.splice(keys)) this.index.delete(key);
    this.args.splice(args);
  }

  push(text: string): void {
    this.encoded = this.encoded === '' ? text : `${this.encoded},${text}`;
    this.bytes += text.length + 1;
  }

  done(): EncodedWrites {
    return { keys: this.keys, writes: `[${this.encoded}]`, args: this.args };
  }
}

/** One command as JSON text: keys by their KEYS index, long values by their argument number. */
const encodeOp = (w: WriteOp, c: Call): string => {
  switch (w.op) {
    case 'set':
      return `["SET",${c.k(w.key)},${c.v(String(w.value))}]`;
    case 'del':
      return `["DEL",${w.keys.map((key) => c.k(key)).join(',')}]`;
    case 'hset':
      return `["HSET",${c.k(w.key)},${w.fields.map(([field, value]) => `${str(field)},${c.v(String(value))}`).join(',')}]`;
    case 'hdel':
      return `["HDEL",${c.k(w.key)},${str(w.field)}]`;
    case 'hincrby':
      return `["HINCRBY",${c.k(w.key)},${str(w.field)},"${w.by}"]`;
    case 'expire':
      return `["EXPIRE",${c.k(w.key)},"${w.seconds}"]`;
    case 'zadd':
      return `["ZADD",${c.k(w.key)},${w.onlyLower ? '"LT",' : ''}"${num(w.score)}",${str(w.member)}]`;
    case 'zrem':
      return `["ZREM",${c.k(w.key)},${str(w.member)}]`;
    case 'zremFrom':
      return `["ZREMRANGEBYSCORE",${c.k(w.key)},"${num(w.min)}","+inf"]`;
    case 'zremBetween':
      return `["ZREMRANGEBYSCORE",${c.k(w.key)},"${num(w.min)}","(${num(w.below)}"]`;
    case 'zkeepFrom':
      return `["ZKEEPFROM",${c.k(w.key)},"${num(w.cutoff)}"${(w.from ?? []).map((key) => `,${c.k(key)}`).join('')}]`;
    case 'summarizeDown':
      return `["SUMMARIZEDOWN",${c.k(w.key)},${c.k(w.summary)},"${w.fromDay}","${w.toDay}"]`;
    case 'sadd':
      return `["SADD",${c.k(w.key)},${str(w.member)}]`;
    case 'srem':
      return `["SREM",${c.k(w.key)},${str(w.member)}]`;
    case 'hsetVersioned':
      return `["HSETVERSIONED",${c.k(w.key)},${str(w.channel)},${str(w.message)},${str(w.unchangedMessage ?? '')},"${w.atLeast}"${w.fields.map(([field, value]) => `,${str(field)},${c.v(value)}`).join('')}]`;
    case 'publish':
      return `["PUBLISH",${str(w.channel)},${str(w.message)}]`; // a channel is not a key
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
  let call = new Call(firstKeys, fixedBytes);
  for (const w of bounded(ops)) {
    const declared = call.keys.length;
    const passed = call.args.length;
    let text = encodeOp(w, call);
    if ((call.keys.length > caps.keys || call.bytes + text.length + 1 > caps.bytes) && call.encoded !== '') {
      call.undeclare(declared, passed);
      calls.push(call.done());
      call = new Call(firstKeys, fixedBytes);
      text = encodeOp(w, call);
    }
    call.push(text);
  }
  calls.push(call.done());
  return calls;
};

/** `ops` as one script call, whatever its size (tests and callers that checked the size). */
export const encodeWrites = (firstKeys: readonly string[], ops: readonly WriteOp[]): EncodedWrites =>
  must(encodeCalls(firstKeys, ops, { keys: Infinity, bytes: Infinity })[0], 'the one call');
