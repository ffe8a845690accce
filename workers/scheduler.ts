// node-cron only triggers: every few seconds each partition of the active version is woken.
// That is the safety-net poll (a lost wake-up costs at most one period) and the clock: the
// partition job renders what a new minute changes. Duplicate triggers from several worker
// processes collapse in the queue's deduplication, so this is safe to run everywhere.
import cron from 'node-cron';
import type { Redis } from 'ioredis';
import type { Logger } from '../src/shared/logger.ts';
import type { ProjectorQueue } from '../src/projector/queue.ts';
import { readActive } from '../src/models/control/versions.ts';

export const POLL_CRON = '*/5 * * * * *';

export const startScheduler = (deps: {
  queue: ProjectorQueue;
  redis: Redis;
  prefix: string;
  log: Logger;
}) => {
  const task = cron.schedule(POLL_CRON, async () => {
    try {
      const active = await readActive(deps.redis, deps.prefix);
      // No active version: partition 0's job rebuilds the models.
      const partitions = active ? Array.from({ length: active.partitions }, (_, p) => p) : [0];
      await deps.queue.wakePartitions(partitions);
    } catch (error) {
      deps.log.warn({ err: (error as Error).message }, 'scheduler tick failed');
    }
  });
  return { stop: () => task.stop() };
};
