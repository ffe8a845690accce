// Read-model versions (blue/green, design notes §3): a new version is built under its own key
// prefix while the active one keeps serving, the `active` pointer flips once it has caught up,
// then the old version is deleted. Its checkpoints go first, which fences any late writer.
// These writes are not part of any partition's commit: they create, flip and drop partitions.
import type { RedisClient } from '../redis/redisClient.ts';
import { scanKeys } from '../redis/scanKeys.ts';
import { START, formatCheckpoint } from '../../eventLog/readAfter.ts';
import { formatActive, parseActive, type ActiveVersion } from './codec.ts';
import {
  activeKey,
  partitionKeys,
  partitionPattern,
  partitionTag,
  versionMetaKey,
  versionSeqKey,
} from './keys.ts';

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

/** Points the API at `version`; returns the version it replaced. */
export const activate = async (
  redis: RedisClient,
  prefix: string,
  next: ActiveVersion,
  now: Date,
): Promise<ActiveVersion | null> => {
  const previous = parseActive(await redis.getset(activeKey(prefix), formatActive(next)));
  await redis.hset(versionMetaKey(prefix, next.version), {
    state: 'active',
    caught_up_at: now.toISOString(),
  });
  if (previous && previous.version !== next.version)
    await redis.hset(versionMetaKey(prefix, previous.version), { state: 'retired' });
  return previous && previous.version !== next.version ? previous : null;
};

const UNLINK_CHUNK = 500;

/** Deletes every key of a version, checkpoints first. */
export const deleteVersion = async (
  redis: RedisClient,
  prefix: string,
  version: ActiveVersion,
): Promise<number> => {
  let deleted = 0;
  for (let p = 0; p < version.partitions; p += 1) {
    const tag = partitionTag(prefix, version.version, p);
    await redis.del(partitionKeys(tag).checkpoint);
    // The one SCAN outside tests: a retired version's keys are not listed anywhere. Its keys
    // share the partition's hash tag, so each UNLINK stays in one slot.
    const keys = await scanKeys(redis, partitionPattern(tag));
    for (let i = 0; i < keys.length; i += UNLINK_CHUNK)
      deleted += await redis.unlink(...keys.slice(i, i + UNLINK_CHUNK));
  }
  await redis.del(versionMetaKey(prefix, version.version));
  return deleted;
};
