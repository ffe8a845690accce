// The one way writes reach the read models: bounded script calls, each fenced by the partition's
// checkpoint; a batch's writes land in one call (docs/read-models.md, "How writes reach Redis").
import type { RedisClient } from '../redisClient.ts';
import {
  callBytes,
  encodeCalls,
  MAX_CALL_BYTES,
  MAX_CALL_KEYS,
  type EncodedWrites,
} from '../encodeWrites.ts';
import { withScripts } from '../scripts.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';
import { partitionKeys } from '../../../projections/store/control/keys.ts';

export type Fence = Readonly<{
  /** The partition's hash-tagged key prefix; every written key must start with it. */
  tag: string;
  /** The checkpoint the runner read its inputs at. */
  expected: string;
  /** The checkpoint to move to; null keeps it. */
  next: string | null;
}>;

export class KeyOutsidePartition extends Error {
  override readonly name = 'KeyOutsidePartition';
}

/** A batch whose writes (deletions aside) do not fit one script call: the batch must be cut. */
class BatchTooLarge extends Error {
  override readonly name = 'BatchTooLarge';
}

const isDeletion = (w: WriteOp) => w.op === 'del';

const callsOf = (tag: string, writes: readonly WriteOp[]): EncodedWrites[] =>
  encodeCalls([partitionKeys(tag).checkpoint], writes);

/** A batch's writes, encoded once: measured by the projector, then committed as they are. */
export type EncodedBatch = Readonly<{
  /**
   * How much of one script call the writes other than deletions take: the larger of their keys
   * ÷ MAX_CALL_KEYS and bytes ÷ MAX_CALL_BYTES. At most 1: the batch can be committed (deletions
   * may go ahead in calls of their own).
   */
  load: number;
  calls: readonly EncodedWrites[];
  writes: number;
}>;

export const encodeBatch = (tag: string, writes: readonly WriteOp[]): EncodedBatch => {
  const deletions = writes.filter(isDeletion);
  const [rest] = encodeCalls(
    [partitionKeys(tag).checkpoint],
    deletions.length === 0 ? writes : writes.filter((w) => !isDeletion(w)),
    { keys: Infinity, bytes: Infinity },
  );
  if (rest === undefined) throw new Error('encodeCalls returned no call'); // it always returns one
  const bytes = callBytes(rest);
  const load = Math.max(rest.keys.length / MAX_CALL_KEYS, bytes / MAX_CALL_BYTES);
  if (deletions.length === 0) return { load, calls: [rest], writes: writes.length };
  // Kept in their order in one call when they fit: a batch may write a key and then delete it.
  const all = callsOf(tag, writes);
  const calls = all.length === 1 ? all : [...callsOf(tag, deletions), rest];
  return { load, calls, writes: writes.length };
};

const call = async (
  redis: RedisClient,
  fence: Fence,
  encoded: EncodedWrites,
  next: string,
): Promise<boolean> => {
  const prefix = `${fence.tag}:`;
  const stray = encoded.keys.find((key) => !key.startsWith(prefix));
  if (stray !== undefined) throw new KeyOutsidePartition(`${stray} is not under ${fence.tag}`);
  const applied = await withScripts(redis).commitWrites(
    encoded.keys.length,
    ...encoded.keys,
    fence.expected,
    next,
    encoded.writes,
    // The long values (rendered documents) as Buffers: ioredis then sends the call as one buffer
    // rather than one string built by concatenation, which cost a render's commit a quarter more CPU.
    ...encoded.args.map((arg) => Buffer.from(arg)),
  );
  return applied === 1;
};

const commitCalls = async (
  redis: RedisClient,
  fence: Fence,
  calls: readonly EncodedWrites[],
): Promise<boolean> => {
  for (const [i, encoded] of calls.entries()) {
    const last = i === calls.length - 1;
    if (!(await call(redis, fence, encoded, last ? (fence.next ?? '') : ''))) return false;
  }
  return true;
};

/**
 * Commits a batch encoded by encodeBatch and moves the checkpoint to `fence.next`, only while it
 * holds `fence.expected`. Returns false when fenced.
 * @throws KeyOutsidePartition when a key is not under `fence.tag`
 * @throws BatchTooLarge when its writes other than deletions need more than one call
 */
export const commitBatch = async (
  redis: RedisClient,
  fence: Fence,
  batch: EncodedBatch,
): Promise<boolean> => {
  if (batch.load > 1)
    throw new BatchTooLarge(`a batch of ${String(batch.writes)} writes needs more than one call`);
  return commitCalls(redis, fence, batch.calls);
};

/**
 * Applies `writes` in bounded script calls, each only while the checkpoint holds `fence.expected`;
 * the last moves it to `fence.next`. Returns false when fenced.
 * @throws KeyOutsidePartition when a key is not under `fence.tag`
 * @throws BatchTooLarge when a batch's writes (`fence.next` set) other than deletions need more than one call
 */
export const commitWrites = (
  redis: RedisClient,
  fence: Fence,
  writes: readonly WriteOp[],
): Promise<boolean> =>
  fence.next === null
    ? commitCalls(redis, fence, callsOf(fence.tag, writes))
    : commitBatch(redis, fence, encodeBatch(fence.tag, writes));
