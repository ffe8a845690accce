// The BullMQ worker of `npm run work` and `npm start`: wiring only; all logic lives in
// src/projector (testable without BullMQ).
import { Worker } from 'bullmq';
import type { RedisClient } from '../src/store/redisClient.ts';
import { projectPartition, type JobContext } from '../src/projector/projectPartition.ts';
import type { ProjectorJob } from '../src/projector/queue.ts';
import type { RecentRuns } from './recentRuns.ts';
import { PROJECTOR_QUEUE, queuePrefix } from '../projections/store/control/keys.ts';

export const startProjectorWorker = (
  ctx: JobContext,
  connection: RedisClient,
  options: Readonly<{ concurrency: number; recent?: RecentRuns }>,
): Worker<ProjectorJob, number> => {
  const worker = new Worker<ProjectorJob, number>(
    PROJECTOR_QUEUE,
    async (job) => {
      const result = await projectPartition(ctx, job.data.partition);
      if (result?.caughtUp && !result.fenced) options.recent?.caughtUp(job.data.partition);
      return result?.events ?? 0;
    },
    {
      connection,
      prefix: queuePrefix(ctx.prefix),
      concurrency: options.concurrency,
      // A killed worker's job is noticed within seconds, not the default 30 s; a false stall
      // is harmless because every commit is fenced by the checkpoint.
      lockDuration: 10_000,
      stalledInterval: 5_000,
      maxStalledCount: 100,
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 1000 },
    },
  );
  worker.on('failed', (job, err) =>
    ctx.log.error({ partition: job?.data.partition, err: err.message }, 'projector job failed'),
  );
  worker.on('error', (err) => ctx.log.error({ err: err.message }, 'projector worker error'));
  return worker;
};
