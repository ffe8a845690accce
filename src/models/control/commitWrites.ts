// The one way writes reach the read models: in a single script call, fenced by the partition's
// checkpoint (redis/commitWrites.lua). Every key must sit under the partition's hash tag, so
// one commit touches one Redis Cluster slot.
import type { RedisClient } from '../redis/redisClient.ts';
import { encodeWrites } from '../redis/encodeWrites.ts';
import { withScripts } from '../redis/scripts.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { partitionKeys } from './keys.ts';

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

/**
 * Applies `writes` in order and moves the checkpoint, atomically. Returns false (and writes
 * nothing) when the checkpoint no longer holds `fence.expected`.
 * @throws KeyOutsidePartition when a key is not under `fence.tag`
 */
export const commitWrites = async (
  redis: RedisClient,
  fence: Fence,
  writes: readonly WriteOp[],
): Promise<boolean> => {
  const { keys, writes: encoded } = encodeWrites([partitionKeys(fence.tag).checkpoint], writes);
  const prefix = `${fence.tag}:`;
  const stray = keys.find((key) => !key.startsWith(prefix));
  if (stray !== undefined) throw new KeyOutsidePartition(`${stray} is not under ${fence.tag}`);
  const applied = await withScripts(redis).commitWrites(
    keys.length,
    ...keys,
    fence.expected,
    fence.next ?? '',
    encoded,
  );
  return applied === 1;
};
