// `npm run rebuild`: builds a new version of every read model from the log while the current
// one keeps serving, flips, then deletes the old one. Safe beside running workers.
import type { Config } from '../config.ts';
import { verifyLogOrigin } from '../eventLog/logOrigin.ts';
import { migrate } from '../eventLog/migrate.ts';
import { rebuild, RebuildRunning } from '../projector/rebuild.ts';
import { createProjectorQueue } from '../projector/queue.ts';
import { systemClock } from '../shared/clock.ts';
import { createClients, type Clients } from './clients.ts';

export const rebuildCommand = async (config: Config): Promise<number> => {
  await migrate(config.databaseUrl);
  const clients = await createClients(config, 'rebuild');
  try {
    await verifyLogOrigin(clients.db); // a restored log would rebuild into empty models
    return await rebuildWith(config, clients);
  } finally {
    await clients.close();
  }
};

/** Rebuilds, prints the outcome and wakes the workers; 1 when another rebuild holds the lock. */
export const rebuildWith = async (config: Config, clients: Clients): Promise<number> => {
  const events = new Map<number, number>();
  const started = Date.now();
  const tty = process.stderr.isTTY;
  try {
    const active = await rebuild(
      {
        db: clients.db,
        redis: clients.redis,
        clock: systemClock,
        urls: { baseUrl: config.publicBaseUrl, pageUrlTemplate: config.pageUrlTemplate },
        batchSize: config.batchSize,
        log: clients.log,
      },
      {
        prefix: config.redisPrefix,
        partitions: config.partitions,
        onProgress: ({ partition, events: n }) => {
          events.set(partition, n);
          const total = [...events.values()].reduce((a, b) => a + b, 0);
          const rate = Math.round(total / Math.max(0.001, (Date.now() - started) / 1000));
          if (tty) process.stderr.write(`\rrebuilding: ${total} events projected (${rate}/s)…`);
        },
      },
    );
    const total = [...events.values()].reduce((a, b) => a + b, 0);
    if (tty) process.stderr.write('\n');
    console.log(
      `rebuilt version ${active.version} (${active.partitions} partitions) from ${total} events in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    // Workers pick the new version up on their next job; wake them now.
    const queue = createProjectorQueue(clients.queueRedis, config.redisPrefix);
    await queue.wakePartitions(Array.from({ length: active.partitions }, (_, p) => p));
    await queue.close();
    return 0;
  } catch (error) {
    if (error instanceof RebuildRunning) {
      console.error('another rebuild is running; try again when it has finished');
      return 1;
    }
    throw error;
  }
};
