// Rebuilds every read model into a new version while the current one serves, then flips to it
// (docs/architecture.md, "Versions and rebuilds").
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActiveVersion } from '../../projections/store/control/codec.ts';
import { ensurePartitionIndex } from '../eventLog/partitionIndex.ts';
import { lockHolderPurpose, takeRebuildLock, type RebuildLock } from '../store/control/rebuildLock.ts';
import { collectStaleVersions, type Collected } from '../store/control/staleVersions.ts';
import { recordRebuildProgress } from '../store/control/rebuildProgress.ts';
import { activate, createVersion, deleteVersion, readActive } from '../store/control/versions.ts';
import { replayLog } from './replayLog.ts';
import { runPartition, type ProjectorDeps } from './runPartition.ts';

/** `events` read so far from the log (all partitions at once: `partition` is -1). */
export type RebuildProgress = Readonly<{ partition: number; events: number; done: boolean }>;
export type RebuildOptions = Readonly<{
  prefix: string;
  partitions: number;
  /** Only build when no version is active (checked again once the lock is held). */
  onlyIfMissing?: boolean;
  /** Only build while the active version is still this one (a repair: another may have repaired it). */
  onlyIfActive?: number;
  /** How long readers may still hold the old pointer (the API caches it for ~1 s). */
  graceMs?: number;
  onProgress?: (progress: RebuildProgress) => void;
}>;

export class RebuildRunning extends Error {
  override readonly name = 'RebuildRunning';
}

const logCollected = (deps: Pick<ProjectorDeps, 'log'>, collected: Collected): Collected => {
  if (collected.versions.length > 0)
    deps.log.info({ ...collected }, 'stale read-model versions deleted (left by an interrupted rebuild)');
  return collected;
};

// A start-up collection is a SCAN and bounded UNLINKs: seconds at most, even for millions of keys.
const COLLECTION_WAIT_MS = 60_000;

/** The lock for a rebuild: waits while a worker's start-up collection holds it, null if a rebuild does. */
const takeLockForRebuild = async (
  deps: Pick<ProjectorDeps, 'redis'>,
  prefix: string,
): Promise<RebuildLock | null> => {
  for (const started = Date.now(); ;) {
    const lock = await takeRebuildLock(deps.redis, prefix);
    if (lock !== null) return lock;
    const holder = await lockHolderPurpose(deps.redis, prefix);
    if (holder === 'rebuild' || Date.now() - started >= COLLECTION_WAIT_MS) return null;
    await sleep(100); // the holder is a collection (or just released the lock): try again soon
  }
};

/**
 * Builds a new version from the log and activates it. A page that cannot be projected is
 * quarantined, not fatal.
 * @throws RebuildRunning when another rebuild holds the lock
 * @throws RebuildLockLost (versions.ts) when the lock was lost before the flip (the new version is deleted)
 */
export const rebuild = async (deps: ProjectorDeps, options: RebuildOptions): Promise<ActiveVersion> => {
  const lock = await takeLockForRebuild(deps, options.prefix);
  if (lock === null) throw new RebuildRunning('another rebuild is running');
  try {
    // Another process may have finished building between our look and our lock.
    const existing = await readActive(deps.redis, options.prefix);
    if (existing && options.onlyIfMissing) return existing;
    if (existing && options.onlyIfActive !== undefined && existing.version !== options.onlyIfActive)
      return existing;
    logCollected(deps, await collectStaleVersions(deps.redis, options.prefix, lock));
    // The new version's partitions read the log through the index for their count.
    await ensurePartitionIndex(deps.db, options.partitions);
    const version = await createVersion(deps.redis, options.prefix, options.partitions, deps.clock());
    const next = { version, partitions: options.partitions };
    const progress = recordRebuildProgress(deps.redis, options.prefix, version);
    const build = async () => {
      await progress.record(0, true);
      const replayed = await replayLog(
        deps,
        { prefix: options.prefix, version, partitions: options.partitions },
        (events) => {
          void progress.record(events);
          options.onProgress?.({ partition: -1, events, done: false });
        },
      );
      // Catch up what was appended meanwhile and render every page, partition by partition.
      for (let partition = 0; partition < options.partitions; partition += 1) {
        const ref = { prefix: options.prefix, version, partition, partitions: options.partitions };
        for (;;) {
          const result = await runPartition(deps, ref, { mode: 'rebuild', budgetMs: 2_000 });
          if (result.fenced) throw new Error(`rebuild of partition ${partition} was fenced`);
          await progress.record(replayed, true); // catching up counts as moving on (stuck-rebuild alert)
          if (result.caughtUp) break;
        }
      }
      options.onProgress?.({ partition: -1, events: replayed, done: true });
      return activate(deps.redis, options.prefix, { next, now: deps.clock(), lock });
    };
    const previous = await build()
      .catch(async (error: unknown) => {
        await deleteVersion(deps.redis, options.prefix, next);
        throw error;
      })
      .finally(() => progress.clear());
    if (previous) {
      await sleep(options.graceMs ?? 2_000);
      await deleteVersion(deps.redis, options.prefix, previous);
    }
    return next;
  } finally {
    await lock.release();
  }
};

/**
 * At worker start: deletes the versions an interrupted rebuild left. While the rebuild lock is
 * held — by a running rebuild, or by a killed one until its lock expires — it tries again every
 * `retryEveryMs` for up to `retryForMs`. Returns null when it never got the lock.
 */
export const collectStaleAtStart = async (
  deps: Pick<ProjectorDeps, 'redis' | 'log'>,
  prefix: string,
  { retryForMs = 0, retryEveryMs = 5_000 }: { retryForMs?: number; retryEveryMs?: number } = {},
): Promise<Collected | null> => {
  for (const started = Date.now(); ;) {
    const lock = await takeRebuildLock(deps.redis, prefix, { purpose: 'collect' });
    if (lock !== null) {
      try {
        return logCollected(deps, await collectStaleVersions(deps.redis, prefix, lock));
      } finally {
        await lock.release();
      }
    }
    if (Date.now() - started >= retryForMs) return null;
    await sleep(retryEveryMs, undefined, { ref: false }); // never keeps a stopping process alive
  }
};
