// Read-model versions (blue/green, design notes §3): a new version is built under its own key
// prefix while the active one keeps serving, the `active` pointer flips once it has caught up,
// then the old version is deleted. Its checkpoints go first, which fences any late writer.
// These writes are not part of any partition's commit: they create, flip and drop partitions.
import type { Redis } from 'ioredis';
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

export const readActive = async (redis: Redis, prefix: string): Promise<ActiveVersion | null> =>
  parseActive(await redis.get(activeKey(prefix)));

export const createVersion = async (
  redis: Redis,
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
  redis: Redis,
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

/** Deletes every key of a version, checkpoints first. */
export const deleteVersion = async (
  redis: Redis,
  prefix: string,
  version: ActiveVersion,
): Promise<number> => {
  let deleted = 0;
  for (let p = 0; p < version.partitions; p += 1) {
    const tag = partitionTag(prefix, version.version, p);
    await redis.del(partitionKeys(tag).checkpoint);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', partitionPattern(tag), 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  }
  await redis.del(versionMetaKey(prefix, version.version));
  return deleted;
};
