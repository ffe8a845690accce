// The BullMQ side of the projector: one job per partition, payload {partition} only. Wake-ups
// are deduplicated with keepLastIfActive, so a partition has at most one running job plus one
// follow-up, and a wake-up that lands while a job runs is never lost (design notes §2).
import { Queue } from 'bullmq';
import type { RedisClient } from '../store/redisClient.ts';
import type { ActiveVersionReader } from '../store/control/activeVersionReader.ts';
import { PROJECTOR_QUEUE, queuePrefix } from '../../projections/store/control/keys.ts';
import { partitionOf } from '../shared/pageHash.ts';

export type ProjectorJob = Readonly<{ partition: number }>;

export type ProjectorQueue = Readonly<{
  queue: Queue<ProjectorJob>;
  wakePartitions: (partitions: Iterable<number>) => Promise<void>;
  /** Wakes the partitions of the given pages (under the given partition count). */
  wakePages: (pages: readonly string[], partitions: number) => Promise<void>;
  close: () => Promise<void>;
}>;

/** Wakes the projectors of the pages an append touched. */
export type Wake = (pages: string[]) => Promise<void>;

export const createProjectorQueue = (connection: RedisClient, prefix: string): ProjectorQueue => {
  const queue = new Queue<ProjectorJob>(PROJECTOR_QUEUE, { connection, prefix: queuePrefix(prefix) });
  const wakePartitions = async (partitions: Iterable<number>) => {
    await Promise.all(
      [...new Set(partitions)].map((partition) =>
        queue.add(
          'project',
          { partition },
          {
            deduplication: { id: `p${partition}`, keepLastIfActive: true },
            removeOnComplete: { count: 100 },
            removeOnFail: { count: 1000 },
            attempts: 3,
            backoff: { type: 'exponential', delay: 1000 },
          },
        ),
      ),
    );
  };
  return {
    queue,
    wakePartitions,
    wakePages: (pages, partitions) => wakePartitions(pages.map((slug) => partitionOf(slug, partitions))),
    close: () => queue.close(),
  };
};

/**
 * The one wake-up policy, used after every append whatever the door: the partitions owning the
 * pages under the active version; with no active version, partition 0, whose job builds the models.
 */
export const createWake =
  (queue: ProjectorQueue, active: ActiveVersionReader): Wake =>
  async (pages) => {
    if (pages.length === 0) return;
    const version = await active();
    if (version) await queue.wakePages(pages, version.partitions);
    else await queue.wakePartitions([0]);
  };

/**
 * The scheduler's poll: every partition of the active version (those `select` keeps), or
 * partition 0 as above.
 */
export const wakeAllPartitions = async (
  queue: ProjectorQueue,
  active: ActiveVersionReader,
  select: (partitions: number[]) => number[] = (all) => all,
): Promise<void> => {
  const version = await active();
  await queue.wakePartitions(version ? select(Array.from({ length: version.partitions }, (_, p) => p)) : [0]);
};

/**
 * Wakes after a committed append and never rejects: the events are in the log whatever happens
 * here, and a lost wake-up costs at most the scheduler's poll period. `onFailure` reports it.
 */
export const wakeAfterAppend = async (
  wake: Wake,
  pages: string[],
  onFailure: (error: unknown) => void,
): Promise<void> => {
  if (pages.length === 0) return;
  try {
    await wake(pages);
  } catch (error) {
    onFailure(error);
  }
};
