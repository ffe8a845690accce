// node-cron only triggers: every few seconds each partition of the active version is woken.
// That is the safety-net poll (a lost wake-up costs at most one period) and the clock: the
// partition job renders what a new minute changes. Duplicate triggers from several worker
// processes collapse in the queue's deduplication, so this is safe to run everywhere.
import cron from 'node-cron';
import type { Logger } from '../shared/logger.ts';
import { wakeAllPartitions, type ProjectorQueue } from '../projector/queue.ts';
import type { ActiveVersionReader } from '../models/control/activeVersionReader.ts';

export const POLL_CRON = '*/5 * * * * *';

export const startScheduler = (deps: { queue: ProjectorQueue; active: ActiveVersionReader; log: Logger }) => {
  const task = cron.schedule(POLL_CRON, async () => {
    try {
      await wakeAllPartitions(deps.queue, deps.active);
    } catch (error) {
      deps.log.warn({ err: (error as Error).message }, 'scheduler tick failed');
    }
  });
  return { stop: () => task.stop() };
};
