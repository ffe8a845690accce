// A read of one partition's keys as script calls (readKeys.lua) rather than a pipeline: the
// projector's batch and render loads are dozens to thousands of small reads, and ioredis spends
// more CPU per pipelined command than Redis does; one script call of N reads costs the client about
// half as much. Same replies, same decoders: any read works either way.
import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from './redisClient.ts';
import { runAtomicRead, runRead, type Read } from './reads.ts';
import { withScripts } from './scripts.ts';

/** Reads per script call: one call keeps Redis busy for about a millisecond at most. */
export const MAX_SCRIPT_READS = 1_000;

/** A hash's reply as ioredis shapes HGETALL's in a pipeline: field → value. */
const asHash = (reply: unknown): Record<string, string> => {
  const hash: Record<string, string> = {};
  if (!Array.isArray(reply)) return hash;
  for (let i = 0; i + 1 < reply.length; i += 2) hash[reply[i] as string] = reply[i + 1] as string;
  return hash;
};

/** The commands a scripted read carries, each with the shape ioredis gives its reply (null: as is). */
const SHAPES: ReadonlyMap<string, ((reply: unknown) => unknown) | null> = new Map([
  ['get', null],
  ['hgetall', asHash],
  ['hmget', null],
  ['hkeys', null],
  ['hlen', null],
  ['exists', null],
  ['smembers', null],
  ['zcard', null],
  ['zcount', null],
  ['zscore', null],
  ['sismember', null],
  ['zrangebyscore', null],
  ['zrevrangebyscore', null],
]);

/** A read that cannot go as a script: another command, or a key of another partition. */
class NotScriptable extends Error {}

/** Takes down what a read queues: per command its key, then its name, argument count and arguments. */
class Recorder {
  readonly keys: string[] = [];
  readonly args: string[] = [];
  readonly shapes: (((reply: unknown) => unknown) | null)[] = [];
  /** Where each read's name starts in `args`. */
  private readonly starts: number[] = [];
  private readonly prefix: string;
  constructor(tag: string) {
    this.prefix = `${tag}:`;
  }
  add(command: string, key: unknown, rest: readonly unknown[]): void {
    const shape = SHAPES.get(command);
    if (shape === undefined || typeof key !== 'string' || !key.startsWith(this.prefix))
      throw new NotScriptable(command);
    this.keys.push(key);
    this.shapes.push(shape);
    this.starts.push(this.args.length);
    this.args.push(command, String(rest.length));
    for (const arg of rest) this.args.push(String(arg));
  }
  /** The keys, then the arguments, of reads `from` to `to` (excluded): one script call's. */
  callArgs(from: number, to: number): string[] {
    const keys = this.keys.slice(from, to);
    return [...keys, ...this.args.slice(this.starts[from], this.starts[to] ?? this.args.length)];
  }
}

/** The recorder behind the pipeline interface the reads queue on. */
const commanderOf = (recorder: Recorder): ChainableCommander => {
  const commander: ChainableCommander = new Proxy({} as ChainableCommander, {
    get:
      (_, name) =>
      (key: unknown, ...rest: unknown[]) => {
        recorder.add(String(name), key, rest);
        return commander;
      },
  });
  return commander;
};

/** The reads recorded, or null when one of them cannot go as a script. */
const recorded = (tag: string, read: Read<unknown>): Recorder | null => {
  const recorder = new Recorder(tag);
  try {
    read.queue(commanderOf(recorder));
  } catch (error) {
    if (error instanceof NotScriptable) return null;
    throw error;
  }
  return recorder;
};

/** Decodes the replies of the script calls as the reads' own decoders expect them. */
const decodeScripted = async <T>(
  read: Read<T>,
  recorder: Recorder,
  calls: Promise<unknown[]>[],
): Promise<T> => {
  const replies = (await Promise.all(calls)).flat();
  for (let i = 0; i < replies.length; i += 1) {
    const shape = recorder.shapes[i];
    if (shape) replies[i] = shape(replies[i]);
  }
  return read.decode(replies, 0);
};

/**
 * Runs `read`, whose keys are all of the partition `tag` (one hash slot, so also on a cluster),
 * in script calls; a read with another command or key goes as a pipeline (runRead).
 * @throws the first error a command replied
 */
export const runPartitionRead = async <T>(redis: RedisClient, tag: string, read: Read<T>): Promise<T> => {
  if (read.size === 0) return read.decode([], 0);
  const recorder = recorded(tag, read);
  if (recorder === null) return runRead(redis, read);
  const calls: Promise<unknown[]>[] = [];
  for (let from = 0; from < recorder.keys.length; from += MAX_SCRIPT_READS) {
    const to = Math.min(from + MAX_SCRIPT_READS, recorder.keys.length);
    calls.push(withScripts(redis).readKeys(to - from, ...recorder.callArgs(from, to)));
  }
  return decodeScripted(read, recorder, calls);
};

/**
 * Runs `read` of the partition `tag` atomically: one script call, whatever its size (Redis runs
 * nothing else meanwhile), or one MULTI when a read cannot go as a script (runAtomicRead).
 * @throws the first error a command replied
 */
export const runPartitionReadAtOnce = <T>(redis: RedisClient, tag: string, read: Read<T>): Promise<T> => {
  if (read.size === 0) return Promise.resolve(read.decode([], 0));
  const recorder = recorded(tag, read);
  if (recorder === null) return runAtomicRead(redis, read);
  const call = withScripts(redis).readKeys(
    recorder.keys.length,
    ...recorder.callArgs(0, recorder.keys.length),
  );
  return decodeScripted(read, recorder, [call]);
};
