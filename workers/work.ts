// `npm run work`: projector workers and the scheduler, with their own probes.
import './v8Tuning.ts';
import { Registry } from 'prom-client';
import { collectProcessMetrics } from '../src/runtime/processMetrics.ts';
import type { Config } from '../src/config.ts';
import { buildOperatorApp } from '../src/operatorApp.ts';
import { createEdgePurger } from '../src/edge/edgePurger.ts';
import { purgeTargets } from '../src/edge/providers.ts';
import { activePartitions } from '../src/edge/activePartitions.ts';
import { createProjectorMetrics } from '../src/projector/projectorMetrics.ts';
import { createProjectorQueue, createWake, wakeAfterAppend } from '../src/projector/queue.ts';
import { appendMissedHeartbeats } from '../src/integrations/missedHeartbeats.ts';
import { eraseUnconfirmed } from '../src/notify/email/subscriberStore.ts';
import { collectStaleAtStart } from '../src/projector/rebuild.ts';
import { requireNoEviction } from '../src/store/evictionPolicy.ts';
import { LOCK_TTL_MS } from '../src/store/control/rebuildLock.ts';
import { readActive } from '../src/store/control/versions.ts';
import { createActiveVersionReader } from '../src/store/control/activeVersionReader.ts';
import { ensurePartitionIndex } from '../src/eventLog/partitionIndex.ts';
import { currentAndNextMonth, createCheckPartitions } from '../src/eventLog/ensureCheckPartitions.ts';
import { systemClock } from '../src/shared/clock.ts';
import type { Clients } from '../src/runtime/clients.ts';
import { listen } from '../src/runtime/listen.ts';
import { startNotifier } from '../src/notify/notifier.ts';
import { buildSenders, senderSources } from '../src/notify/senders.ts';
import { createEmailChannel } from '../src/notify/email/emailChannel.ts';
import { startProjectorWorker } from './projectorWorker.ts';
import { createRecentRuns } from './recentRuns.ts';
import { POLL_PERIOD_MS, startScheduler } from './scheduler.ts';

export const work = async (
  config: Config,
  clients: Clients,
  onShutdown: (close: () => Promise<unknown>) => void,
  /** Without probes, `registry` is the one the process's operator listener serves (npm start). */
  options: { probes: true } | { probes: false; registry: Registry } = { probes: true },
) => {
  const { db, redis, queueRedis, log } = clients;
  await requireNoEviction(redis); // refuses to start: evicted models would be lost silently
  const registry = options.probes ? new Registry() : options.registry;
  const queue = createProjectorQueue(queueRedis, config.redisPrefix);
  const metrics = createProjectorMetrics(registry, {
    db,
    redis: clients.readRedis,
    prefix: config.redisPrefix,
    log,
    queue: queue.queue,
  });
  const activeVersion = createActiveVersionReader(redis, config.redisPrefix);
  // Purges go from the workers, never the API processes: once per change. Each commit queues its
  // own in Redis; any worker drains them, so none is lost with a worker.
  const edge =
    config.edge.providers.length === 0
      ? null
      : createEdgePurger(purgeTargets(config.edge), {
          redis,
          prefix: config.redisPrefix,
          partitions: activePartitions(activeVersion, config.redisPrefix),
          registry,
          log,
        });
  const recent = createRecentRuns(POLL_PERIOD_MS);
  const notifierWake = { current: (): void => undefined };
  const wake = createWake(queue, activeVersion);
  const worker = startProjectorWorker(
    {
      db,
      redis,
      activeVersion,
      clock: systemClock,
      urls: { baseUrl: config.publicBaseUrl, pageUrlTemplate: config.pageUrlTemplate },
      batchSize: config.batchSize,
      log,
      onBatch: (batch) => {
        metrics.onBatch(batch);
        // The notifier reads the same log: an incident or a maintenance is planned now, not at its
        // next look (checks wake nothing: a monitor's state notifies only after it held a minute).
        if (batch.others > 0) notifierWake.current();
      },
      onLoss: metrics.onLoss,
      ...(edge ? { edgePurge: { queued: edge.queued } } : {}),
      onRender: metrics.onRender,
      prefix: config.redisPrefix,
      partitions: config.partitions,
      requeue: (partition) => queue.wakePartitions([partition]),
    },
    queueRedis,
    { concurrency: config.concurrency, recent },
  );
  metrics.watchWorker(worker);
  const scheduler = startScheduler({
    queue,
    active: activeVersion,
    recent,
    log,
    // Appends then never create a partition for the live months inside their transaction.
    upkeep: () => createCheckPartitions(db, currentAndNextMonth(systemClock())),
    erase: async () => {
      const erased = await eraseUnconfirmed(db, systemClock());
      if (erased > 0) log.info({ erased }, 'unconfirmed email sign-ups erased');
    },
    heartbeats: async () => {
      const appended = await appendMissedHeartbeats(db, systemClock());
      if (appended !== null)
        await wakeAfterAppend(wake, appended.pages, (error) => {
          log.warn({ err: (error as Error).message }, 'missed heartbeats: waking projectors failed');
        });
    },
  });
  const active = await readActive(redis, config.redisPrefix);
  // Built once per partition count (a log upgraded from a release without it builds it here).
  await ensurePartitionIndex(db, active?.partitions ?? config.partitions);
  if (active && active.partitions !== config.partitions)
    log.warn(
      { active: active.partitions, configured: config.partitions },
      'PROJECTOR_PARTITIONS differs from the active read models: run `npm run rebuild` to apply it',
    );
  // In the background: a SCAN of the prefix's keys must not delay the workers.
  // A killed rebuild's lock outlives it by up to LOCK_TTL_MS: keep trying a while longer.
  void collectStaleAtStart({ redis, log }, config.redisPrefix, { retryForMs: 2 * LOCK_TTL_MS }).catch(
    (error: unknown) =>
      log.warn({ err: (error as Error).message }, 'stale read-model versions not collected'),
  );
  await queue.wakePartitions(Array.from({ length: config.partitions }, (_, p) => p));
  // Subscriber notifications (docs/notifications.md): from the log, apart from the read models.
  // The email channel needs a transport (MAIL_URL, or MAIL_FOLDER under npm start); without one
  // email rows wait, counted in the backlog.
  const email = await createEmailChannel(config, { db, redis, log });
  const notifier = startNotifier({
    db,
    senders: buildSenders(config, [...senderSources, () => (email ? { email: email.sender } : {})]),
    urls: { baseUrl: config.publicBaseUrl, pageUrlTemplate: config.pageUrlTemplate },
    coalesceMs: config.notify.coalesceSeconds * 1000,
    log,
    registry,
    clock: systemClock,
  });
  notifierWake.current = notifier.wake;
  onShutdown(() => notifier.stop());
  if (email) onShutdown(() => email.close());
  onShutdown(() => queue.close());
  if (edge) onShutdown(() => edge.close()); // after the worker: its last commits' purges go out
  onShutdown(() => worker.close()); // waits for running jobs (BullMQ going-to-production)
  onShutdown(() => scheduler.stop());
  if (options.probes) {
    collectProcessMetrics(registry);
    const probes = await listen(
      buildOperatorApp({
        db,
        redis: clients.readRedis,
        prefix: config.redisPrefix,
        registry,
        log,
        clock: systemClock,
      }),
      config.workerProbePort,
      config.ingestHost,
    );
    onShutdown(() => probes.close());
    log.info({ port: config.workerProbePort }, 'worker probes listening');
  }
  log.info({ partitions: config.partitions, concurrency: config.concurrency }, 'projector workers started');
  return { registry };
};
