// Read-model versions (blue/green): create, flip the active pointer, drop
// (docs/architecture.md, "Versions and rebuilds").
import type { RedisClient } from '../redisClient.ts';
import { START, formatCheckpoint } from '../../eventLog/readAfter.ts';
import { formatActive, parseActive, type ActiveVersion } from '../../../projections/store/control/codec.ts';
import { withScripts } from '../scripts.ts';
import { unlinkInChunks, unlinkMatching } from '../unlinkKeys.ts';
import {
  activeKey,
  partitionKeys,
  partitionTag,
  versionMetaKey,
  versionPattern,
  versionSeqKey,
} from '../../../projections/store/control/keys.ts';
import type { RebuildLock } from './rebuildLock.ts';

export const readActive = async (redis: RedisClient, prefix: string): Promise<ActiveVersion | null> =>
  parseActive(await redis.get(activeKey(prefix)));

export const createVersion = async (
  redis: RedisClient,
  prefix: string,
  partitions: number,
  now: Date,
): Promise<number> => {
  const version = await redis.incr(versionSeqKey(prefix));
  await redis.hset(versionMetaKey(prefix, version), {
    partitions,
    state: 'building',
    started_at: now.toISOString(),
  });
  for (let p = 0; p < partitions; p += 1)
    await redis.set(partitionKeys(partitionTag(prefix, version, p)).checkpoint, formatCheckpoint(START));
  return version;
};

export class RebuildLockLost extends Error {
  override readonly name = 'RebuildLockLost';
}

/** The version to serve, when, and the rebuild lock that allows the flip. */
export type Activation = Readonly<{
  next: ActiveVersion;
  now: Date;
  lock: Pick<RebuildLock, 'key' | 'token'>;
}>;

/**
 * Points the API at `next`, only while `lock` is still ours (checked in the same script as the
 * flip); returns the version it replaced.
 * @throws RebuildLockLost when the lock expired or another rebuild holds it now
 */
export const activate = async (
  redis: RedisClient,
  prefix: string,
  { next, now, lock }: Activation,
): Promise<ActiveVersion | null> => {
  const replaced = await withScripts(redis).activateVersion(
    lock.key,
    activeKey(prefix),
    lock.token,
    formatActive(next),
  );
  if (replaced === null)
    throw new RebuildLockLost(`version ${next.version} not activated: the rebuild lock is no longer ours`);
  const previous = parseActive(replaced);
  await redis.hset(versionMetaKey(prefix, next.version), {
    state: 'active',
    caught_up_at: now.toISOString(),
  });
  if (previous && previous.version !== next.version)
    await redis.hset(versionMetaKey(prefix, previous.version), { state: 'retired' });
  return previous && previous.version !== next.version ? previous : null;
};

/** Deletes every key of a version, checkpoints first (which fences any late writer). */
export const deleteVersion = async (
  redis: RedisClient,
  prefix: string,
  version: ActiveVersion,
): Promise<number> => {
  const checkpoints = Array.from(
    { length: version.partitions },
    (_, p) => partitionKeys(partitionTag(prefix, version.version, p)).checkpoint,
  );
  let deleted = await unlinkInChunks(redis, checkpoints);
  deleted += await unlinkMatching(redis, versionPattern(prefix, version.version));
  await redis.del(versionMetaKey(prefix, version.version));
  return deleted;
};
