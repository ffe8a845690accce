// Versions nobody serves or builds: what a rebuild killed mid-way (or a crash during the grace
// period before the old version's deletion) leaves behind. Collected by the next rebuild and at
// worker start, always by the holder of the rebuild lock, so no version being built is touched.
import type { RedisClient } from '../redisClient.ts';
import { scanKeys } from '../scanKeys.ts';
import { unlinkInChunks, unlinkMatching } from '../unlinkKeys.ts';
import {
  allVersionsPattern,
  versionMetaPattern,
  versionOfKey,
} from '../../../projections/store/control/keys.ts';
import type { RebuildLock } from './rebuildLock.ts';
import { readActive } from './versions.ts';

export type Collected = Readonly<{ versions: number[]; keys: number }>;

/**
 * Deletes every version but the active one, checkpoints first (fencing any late writer), then
 * the rest by SCAN in bounded UNLINKs. The caller holds `lock`; a lock lost meanwhile stops it.
 */
export const collectStaleVersions = async (
  redis: RedisClient,
  prefix: string,
  lock: Pick<RebuildLock, 'lost'>,
): Promise<Collected> => {
  const active = (await readActive(redis, prefix))?.version ?? null;
  /** The version `key` belongs to, when that version is stale; else null. */
  const staleVersion = (key: string): number | null => {
    const version = versionOfKey(prefix, key);
    return version !== null && version !== active ? version : null;
  };
  // The partitions of stale versions, found by their checkpoints' names.
  const checkpoints = (await scanKeys(redis, `${prefix}:{v*}:ckpt`)).flatMap((key) => {
    const version = staleVersion(key);
    return version === null ? [] : [{ key, version }];
  });
  const versions = new Set(checkpoints.map(({ version }) => version));
  let keys = await unlinkInChunks(
    redis,
    checkpoints.map(({ key }) => key),
  );
  if (lock.lost()) return { versions: [...versions], keys };
  keys += await unlinkMatching(redis, allVersionsPattern(prefix), (key) => {
    const version = staleVersion(key);
    if (version === null) return true;
    versions.add(version);
    return false;
  });
  for (const meta of await scanKeys(redis, versionMetaPattern(prefix))) {
    const version = staleVersion(meta);
    if (version === null) continue;
    versions.add(version);
    keys += await redis.unlink(meta);
  }
  return { versions: [...versions].sort((a, b) => a - b), keys };
};
