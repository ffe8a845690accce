// Wakes every partition of the active version every few seconds: the safety-net poll and the
// clock (docs/scaling.md, "Many worker processes").
import cron from 'node-cron';
import type { Logger } from '../src/shared/logger.ts';
import { wakeAllPartitions, type ProjectorQueue } from '../src/projector/queue.ts';
import type { ActiveVersionReader } from '../src/store/control/activeVersionReader.ts';
import type { RecentRuns } from './recentRuns.ts';

export const POLL_CRON = '*/5 * * * * *';
export const POLL_PERIOD_MS = 5_000;
/** Push monitors' missed heartbeats (docs/integrations.md): at most this late after their deadline. */
export const HEARTBEAT_CRON = '*/10 * * * * *';
/** Upkeep that must happen ahead of need (check partitions of the coming month). */
export const UPKEEP_CRON = '0 */6 * * *';
/** Public email sign-ups never confirmed are erased 7 days on: checked hourly. */
export const ERASE_CRON = '17 * * * *';

export const startScheduler = (deps: {
  queue: ProjectorQueue;
  active: ActiveVersionReader;
  log: Logger;
  upkeep: () => Promise<void>;
  /** Erases what must not be kept (unconfirmed email sign-ups). */
  erase?: () => Promise<void>;
  /** Appends the missed-heartbeat checks that are due. */
  heartbeats?: () => Promise<void>;
  /** Partitions this process's worker caught up within the poll period are not woken again. */
  recent?: RecentRuns;
}) => {
  const guarded = (name: string, run: () => Promise<void>) => async () => {
    try {
      await run();
    } catch (error) {
      deps.log.warn({ err: (error as Error).message }, `scheduler ${name} failed`);
    }
  };
  const poll = cron.schedule(
    POLL_CRON,
    guarded('tick', () => wakeAllPartitions(deps.queue, deps.active, deps.recent?.quiet)),
  );
  const upkeep = cron.schedule(UPKEEP_CRON, guarded('upkeep', deps.upkeep));
  const heartbeats = deps.heartbeats
    ? cron.schedule(HEARTBEAT_CRON, guarded('heartbeats', deps.heartbeats), { noOverlap: true })
    : null;
  const erase = deps.erase
    ? cron.schedule(ERASE_CRON, guarded('erase', deps.erase), { noOverlap: true })
    : null;
  void guarded('upkeep', deps.upkeep)();
  return { stop: () => Promise.all([poll.stop(), upkeep.stop(), heartbeats?.stop(), erase?.stop()]) };
};
