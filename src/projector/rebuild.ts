// Rebuilds every read model from position zero into a new version while the current one keeps
// serving, flips the active pointer once every partition has caught up, then deletes the old
// version. One rebuild at a time (a Redis lock); safe beside running workers.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActiveVersion } from '../models/control/codec.ts';
import { ensurePartitionIndex } from '../eventLog/partitionIndex.ts';
import { takeRebuildLock } from '../models/control/rebuildLock.ts';
import { activate, createVersion, deleteVersion, readActive } from '../models/control/versions.ts';
import { replayLog } from './replayLog.ts';
import { runPartition, type ProjectorDeps } from './runPartition.ts';

/** `events` read so far from the log (all partitions at once: `partition` is -1). */
export type RebuildProgress = Readonly<{ partition: number; events: number; done: boolean }>;
export type RebuildOptions = Readonly<{
  prefix: string;
  partitions: number;
  /** Only build when no version is active (checked again once the lock is held). */
  onlyIfMissing?: boolean;
  /** How long readers may still hold the old pointer (the API caches it for ~1 s). */
  graceMs?: number;
  onProgress?: (progress: RebuildProgress) => void;
}>;

export class RebuildRunning extends Error {
  override readonly name = 'RebuildRunning';
}

/** Builds a new version from the log and activates it. Throws RebuildRunning. A page that cannot be projected is quarantined, not fatal. */
export const rebuild = async (deps: ProjectorDeps, options: RebuildOptions): Promise<ActiveVersion> => {
  const release = await takeRebuildLock(deps.redis, options.prefix);
  if (release === null) throw new RebuildRunning('another rebuild is running');
  try {
    // Another process may have finished building between our look and our lock.
    const existing = options.onlyIfMissing ? await readActive(deps.redis, options.prefix) : null;
    if (existing) return existing;
    // The new version's partitions read the log through the index for their count.
    await ensurePartitionIndex(deps.db, options.partitions);
    const version = await createVersion(deps.redis, options.prefix, options.partitions, deps.clock());
    const partitions = Array.from({ length: options.partitions }, (_, partition) => partition);
    const abandon = async (error: unknown) => {
      await deleteVersion(deps.redis, options.prefix, { version, partitions: options.partitions });
      throw error;
    };
    const replay = async () => {
      const replayed = await replayLog(
        deps,
        { prefix: options.prefix, version, partitions: options.partitions },
        (events) => options.onProgress?.({ partition: -1, events, done: false }),
      );
      // Catch up what was appended meanwhile and render every page, partition by partition.
      for (const partition of partitions) {
        const ref = { prefix: options.prefix, version, partition, partitions: options.partitions };
        for (;;) {
          const result = await runPartition(deps, ref, { mode: 'rebuild', budgetMs: 2_000 });
          if (result.fenced) throw new Error(`rebuild of partition ${partition} was fenced`);
          if (result.caughtUp) break;
        }
      }
      options.onProgress?.({ partition: -1, events: replayed, done: true });
    };
    await replay().catch(abandon);
    const next = { version, partitions: options.partitions };
    const previous = await activate(deps.redis, options.prefix, next, deps.clock());
    if (previous) {
      await sleep(options.graceMs ?? 2_000);
      await deleteVersion(deps.redis, options.prefix, previous);
    }
    return next;
  } finally {
    await release();
  }
};
