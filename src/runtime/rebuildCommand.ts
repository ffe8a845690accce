// `npm run rebuild`: builds a new version of every read model from the log while the current
// one keeps serving, flips, then deletes the old one. Safe beside running workers.
import type { Config } from '../config.ts';
import { verifyLogOrigin } from '../eventLog/logOrigin.ts';
import { migrate } from '../eventLog/migrate.ts';
import { projectionStatus } from '../projector/projectionStatus.ts';
import { rebuildOrJoin } from '../projector/rebuildOrJoin.ts';
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

/**
 * Rebuilds, prints the outcome and wakes the workers. Beside a running rebuild it waits for it and,
 * when that one activated a version, reports it and succeeds: 1 only for a real failure.
 */
export const rebuildWith = async (
  config: Config,
  clients: Clients,
  { join = true }: { join?: boolean } = {},
): Promise<number> => {
  const events = new Map<number, number>();
  const started = Date.now();
  const tty = process.stderr.isTTY;
  const outcome = await rebuildOrJoin(
    {
      db: clients.db,
      redis: clients.redis,
      clock: systemClock,
      urls: { baseUrl: config.publicBaseUrl, pageUrlTemplate: config.pageUrlTemplate },
      batchSize: config.batchSize,
      log: clients.log,
      // The rebuilt pages' purges wait in the new version's outboxes; workers send them once it is active.
      ...(config.edge.providers.length > 0 ? { edgePurge: {} } : {}),
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
    { join, onWait: () => console.log('another rebuild is running; waiting for it to finish…') },
  );
  const { active } = outcome;
  const total = [...events.values()].reduce((a, b) => a + b, 0);
  if (tty && total > 0) process.stderr.write('\n');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    outcome.kind === 'joined'
      ? `the rebuild that was running finished: version ${active.version} (${active.partitions} partitions) is active (waited ${seconds} s)`
      : `rebuilt version ${active.version} (${active.partitions} partitions) from ${total} events in ${seconds} s`,
  );
  // A page that could not be projected does not stop a rebuild: it is reported here.
  for (const q of (await projectionStatus(clients.db, clients.redis, config.redisPrefix)).quarantined_pages)
    console.error(`quarantined page ${q.page} (${q.kind} at position ${q.position}): ${q.error}`);
  // Workers pick the new version up on their next job; wake them now.
  const queue = createProjectorQueue(clients.queueRedis, config.redisPrefix);
  await queue.wakePartitions(Array.from({ length: active.partitions }, (_, p) => p));
  await queue.close();
  return 0;
};
