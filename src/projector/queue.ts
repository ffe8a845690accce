// The BullMQ side of the projector: one job per partition, payload {partition} only. Wake-ups
// are deduplicated with keepLastIfActive, so a partition has at most one running job plus one
// follow-up, and a wake-up that lands while a job runs is never lost (design notes §2).
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { partitionOf } from '../shared/pageHash.ts';
import { PROJECTOR_QUEUE, queuePrefix } from '../models/control/keys.ts';

export type ProjectorJob = Readonly<{ partition: number }>;

export type ProjectorQueue = Readonly<{
  queue: Queue<ProjectorJob>;
  wakePartitions: (partitions: Iterable<number>) => Promise<void>;
  /** Wakes the partitions of the given pages (under the active partition count). */
  wakePages: (pages: readonly string[], partitions: number) => Promise<void>;
  close: () => Promise<void>;
}>;

export const createProjectorQueue = (connection: Redis, prefix: string): ProjectorQueue => {
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
