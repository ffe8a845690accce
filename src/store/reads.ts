// Typed pipeline reads: each read knows the commands it queues and how to decode their replies,
// so a list of reads goes out in one round trip and comes back as a typed tuple, with no
// positions to count by hand.
import type { ChainableCommander, Cluster } from 'ioredis';
import { isCluster, type RedisClient } from './redisClient.ts';
import { withScripts } from './scripts.ts';

export type Read<T> = Readonly<{
  /** How many replies the read takes. */
  size: number;
  queue: (pipeline: ChainableCommander) => void;
  /** Decodes the read's replies, found from `at` in `replies`. */
  decode: (replies: readonly unknown[], at: number) => T;
}>;

type ReadResults<R extends readonly Read<unknown>[]> = {
  -readonly [K in keyof R]: R[K] extends Read<infer T> ? T : never;
};

/*
 * The combinators are classes rather than objects of closures: their methods are compiled once
 * and stay compiled, while closures made per read were compiled again after each major GC (a
 * worker makes thousands of reads a minute).
 */
class One<T> implements Read<T> {
  readonly size = 1;
  readonly queue: Read<T>['queue'];
  private readonly decodeReply: (reply: unknown) => T;
  constructor(queue: Read<T>['queue'], decodeReply: (reply: unknown) => T) {
    this.queue = queue;
    this.decodeReply = decodeReply;
  }
  decode(replies: readonly unknown[], at: number): T {
    return this.decodeReply(replies[at]);
  }
}

const one = <T>(queue: Read<T>['queue'], decode: (reply: unknown) => T): Read<T> => new One(queue, decode);

const asString = (reply: unknown): string | null => (typeof reply === 'string' ? reply : null);
const asStrings = (reply: unknown): string[] => (Array.isArray(reply) ? (reply as string[]) : []);

export const getString = (key: string): Read<string | null> => one((p) => p.get(key), asString);

const asBuffer = (reply: unknown): Buffer | null => (Buffer.isBuffer(reply) ? reply : null);

/** The value as bytes (stored bodies: sent as they are, never decoded). */
export const getBuffer = (key: string): Read<Buffer | null> => one((p) => p.getBuffer(key), asBuffer);

export const hashGetBuffer = (key: string, field: string): Read<Buffer | null> =>
  one((p) => p.hgetBuffer(key, field), asBuffer);

export const hashGetManyBuffers = (key: string, fields: readonly string[]): Read<(Buffer | null)[]> =>
  one(
    (p) => p.hmgetBuffer(key, ...fields),
    (reply) => (Array.isArray(reply) ? reply.map(asBuffer) : []),
  );

export const hashGetAll = (key: string): Read<Record<string, string>> =>
  one(
    (p) => p.hgetall(key),
    (reply) => (reply ?? {}) as Record<string, string>,
  );

export const hashFields = (key: string): Read<string[]> => one((p) => p.hkeys(key), asStrings);

const asCount = (reply: unknown): number => (typeof reply === 'number' ? reply : 0);
export const hashLength = (key: string): Read<number> => one((p) => p.hlen(key), asCount);
export const zsetSize = (key: string): Read<number> => one((p) => p.zcard(key), asCount);
/** How many members score in [min, max] (`(n` excludes n). */
export const zsetCount = (key: string, min: Bound, max: Bound): Read<number> =>
  one((p) => p.zcount(key, min, max), asCount);
export const zsetScore = (key: string, member: string): Read<number | null> =>
  one(
    (p) => p.zscore(key, member),
    (reply) => (reply === null || reply === undefined ? null : Number(reply)),
  );

export const hashGetMany = (key: string, fields: readonly string[]): Read<(string | null)[]> =>
  one(
    (p) => p.hmget(key, ...fields),
    (reply) => (Array.isArray(reply) ? reply.map(asString) : []),
  );

export const keyExists = (key: string): Read<boolean> =>
  one(
    (p) => p.exists(key),
    (reply) => reply === 1,
  );

export const setMembers = (key: string): Read<string[]> => one((p) => p.smembers(key), asStrings);

export const setHas = (key: string, member: string): Read<boolean> =>
  one(
    (p) => p.sismember(key, member),
    (reply) => reply === 1,
  );

/** A score bound; `(n` excludes n. */
type Bound = number | '-inf' | '+inf' | `(${number}`;

export const zsetByScore = (key: string, min: Bound, max: Bound): Read<string[]> =>
  one((p) => p.zrangebyscore(key, min, max), asStrings);

/** Members from `max` down to `min`, at most `count`. */
export const zsetByScoreDesc = (key: string, max: Bound, min: Bound, count: number): Read<string[]> =>
  one((p) => p.zrevrangebyscore(key, max, min, 'LIMIT', 0, count), asStrings);

/** A sorted set's member with its score, as Redis replies it. */
export type Scored = readonly [member: string, score: string];

/** The reply alternates members and their scores. */
const asScored = (reply: unknown): Scored[] => {
  const scored: Scored[] = [];
  let member: string | null = null;
  for (const item of asStrings(reply)) {
    if (member === null) member = item;
    else {
      scored.push([member, item]);
      member = null;
    }
  }
  return scored;
};

/** zsetByScore with each member's score. */
export const zsetScoredByScore = (key: string, min: Bound, max: Bound): Read<Scored[]> =>
  one((p) => p.zrangebyscore(key, min, max, 'WITHSCORES'), asScored);

/** zsetScoredByScore, at most `count` from `min` up. */
export const zsetScoredByScoreFirst = (key: string, min: Bound, max: Bound, count: number): Read<Scored[]> =>
  one((p) => p.zrangebyscore(key, min, max, 'WITHSCORES', 'LIMIT', 0, count), asScored);

/** zsetByScoreDesc with each member's score. */
export const zsetScoredByScoreDesc = (key: string, max: Bound, min: Bound, count: number): Read<Scored[]> =>
  one((p) => p.zrevrangebyscore(key, max, min, 'WITHSCORES', 'LIMIT', 0, count), asScored);

/** A read that needs no reply (a value known without asking Redis). */
export const known = <T>(value: T): Read<T> => ({ size: 0, queue: () => undefined, decode: () => value });

class MapRead<A, B> implements Read<B> {
  readonly size: number;
  private readonly read: Read<A>;
  private readonly f: (value: A) => B;
  constructor(read: Read<A>, f: (value: A) => B) {
    this.size = read.size;
    this.read = read;
    this.f = f;
  }
  queue(pipeline: ChainableCommander): void {
    this.read.queue(pipeline);
  }
  decode(replies: readonly unknown[], at: number): B {
    return this.f(this.read.decode(replies, at));
  }
}

export const mapRead = <A, B>(read: Read<A>, f: (value: A) => B): Read<B> => new MapRead(read, f);

class TupleRead<T> implements Read<T[]> {
  readonly size: number;
  private readonly reads: readonly Read<T>[];
  constructor(reads: readonly Read<T>[]) {
    this.reads = reads;
    let size = 0;
    for (const read of reads) size += read.size;
    this.size = size;
  }
  queue(pipeline: ChainableCommander): void {
    for (const read of this.reads) read.queue(pipeline);
  }
  decode(replies: readonly unknown[], at: number): T[] {
    const values: T[] = [];
    let offset = at;
    for (const read of this.reads) {
      values.push(read.decode(replies, offset));
      offset += read.size;
    }
    return values;
  }
}

/** Several reads as one: their replies, in order, as a typed tuple. */
export const tupleRead = <const R extends readonly Read<unknown>[]>(reads: R): Read<ReadResults<R>> =>
  new TupleRead(reads) as unknown as Read<ReadResults<R>>;

/** A list of reads of one type as one read of a list. */
export const listRead = <T>(reads: readonly Read<T>[]): Read<T[]> => tupleRead(reads);

/**
 * A cluster pipeline must stay on one node, and a list of reads may span partitions (slots on
 * several masters): each command goes out on its own, all at once, so it is still one round trip
 * (commands to a node are written back to back on its connection), and each command follows its
 * own redirection while a slot moves (runtime/clients.ts says why not a pipeline).
 */
const repliesOnCluster = (cluster: Cluster, read: Read<unknown>): Promise<unknown[]> => {
  const replies: Promise<unknown>[] = [];
  const commander: ChainableCommander = new Proxy({} as ChainableCommander, {
    get:
      (_, name) =>
      (...args: unknown[]) => {
        const command = Reflect.get(cluster, name) as (...a: unknown[]) => Promise<unknown>;
        replies.push(Reflect.apply(command, cluster, args));
        return commander;
      },
  });
  read.queue(commander);
  return Promise.all(replies);
};

/** Queues `read` on `commands` (a pipeline or a MULTI) and decodes what they reply. */
const runQueued = async <T>(commands: ChainableCommander, read: Read<T>): Promise<T> => {
  read.queue(commands);
  const replies = ((await commands.exec()) ?? []).map(([err, reply]) => {
    if (err) throw err;
    return reply;
  });
  return read.decode(replies, 0);
};

/** Runs `read` in one pipeline. @throws the first error a command replied */
export const runRead = async <T>(redis: RedisClient, read: Read<T>): Promise<T> => {
  if (read.size === 0) return read.decode([], 0);
  withScripts(redis); // reads may call a script (pageList.lua)
  if (isCluster(redis)) return read.decode(await repliesOnCluster(redis, read), 0);
  return runQueued(redis.pipeline(), read);
};

/**
 * Runs `read` in one MULTI/EXEC: Redis runs no other client's command (no commit) in between, so
 * every reply comes from one state of the store. Its keys must share one hash slot.
 * @throws the first error a command replied
 */
export const runAtomicRead = <T>(redis: RedisClient, read: Read<T>): Promise<T> =>
  read.size === 0 ? Promise.resolve(read.decode([], 0)) : runQueued(redis.multi(), read);

/** Runs `reads` in one pipeline and answers their results as a typed tuple. */
export const readAll = <const R extends readonly Read<unknown>[]>(
  redis: RedisClient,
  reads: R,
): Promise<ReadResults<R>> => runRead(redis, tupleRead(reads));
