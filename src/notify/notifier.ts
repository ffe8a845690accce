// The notifier inside the worker process: a planning loop over the log, a dispatch loop over the
// outbox and a clock tick, each independent (a slow receiver never holds the log back). Every
// step is safe to run in two processes at once: the checkpoint row fences planning, SKIP LOCKED
// fences dispatch, and the outbox's primary key makes every clock fact single.
import cron from 'node-cron';
import type { Registry } from 'prom-client';
import type { UrlSettings } from '../../projections/types.ts';
import type { Db } from '../eventLog/createDb.ts';
import type { Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import { dispatchDue } from './dispatch.ts';
import { notifyBatch } from './notifyBatch.ts';
import { createNotifyMetrics } from './notifyMetrics.ts';
import { planClock } from './planClock.ts';
import type { Senders } from './senders.ts';

export type NotifierDeps = Readonly<{
  db: Db;
  senders: Senders;
  urls: UrlSettings;
  coalesceMs: number;
  log: Logger;
  registry: Registry;
  clock: Clock;
  batchSize?: number;
  /** How long an idle loop waits before it looks again. */
  pollMs?: number;
}>;

/** Every 5 s: a reminder, start or settled state goes out within seconds of its moment. */
export const CLOCK_CRON = '*/5 * * * * *';
const CLAIM_LIMIT = 200;

export type Notifier = Readonly<{ stop: () => Promise<void> }>;

export const startNotifier = (deps: NotifierDeps): Notifier => {
  const metrics = createNotifyMetrics(deps.registry, { db: deps.db, log: deps.log });
  const batchSize = deps.batchSize ?? 1000;
  const pollMs = deps.pollMs ?? 250;
  const run = { stopped: false };
  const running = () => !run.stopped;
  const sleepers = new Set<() => void>();
  const sleep = (wakers: Set<() => void>) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      wakers.add(done);
      sleepers.add(done);
    });
  // The dispatcher is woken as soon as planning inserted rows: a new incident's messages do not
  // wait for its next look.
  const dispatchSleepers = new Set<() => void>();
  const wakeDispatch = () => {
    for (const wake of [...dispatchSleepers]) wake();
  };
  /** Runs `step` until it says it is idle, then sleeps; a failure is logged and retried after a sleep. */
  const loop = async (name: string, step: () => Promise<boolean>, wakers = new Set<() => void>()) => {
    while (running()) {
      try {
        while (running() && (await step()));
      } catch (error) {
        deps.log.warn({ err: (error as Error).message }, `notifier ${name} failed`);
      }
      if (running()) await sleep(wakers);
    }
  };
  const planning = loop('planning', async () => {
    const result = await notifyBatch({
      db: deps.db,
      urls: deps.urls,
      coalesceMs: deps.coalesceMs,
      batchSize,
    });
    if (result.planned > 0) wakeDispatch();
    return result.read === batchSize;
  });
  const dispatching = loop(
    'dispatch',
    async () =>
      (await dispatchDue({
        db: deps.db,
        senders: deps.senders,
        log: deps.log,
        metrics,
        claimLimit: CLAIM_LIMIT,
      })) > 0,
    dispatchSleepers,
  );
  const tick = cron.schedule(
    CLOCK_CRON,
    async () => {
      try {
        await planClock(
          { db: deps.db, urls: deps.urls, coalesceMs: deps.coalesceMs },
          deps.clock().getTime(),
        );
      } catch (error) {
        deps.log.warn({ err: (error as Error).message }, 'notifier clock failed');
      }
    },
    { noOverlap: true },
  );
  return {
    stop: async () => {
      run.stopped = true;
      for (const wake of [...sleepers]) wake();
      await tick.stop();
      await Promise.all([planning, dispatching]);
    },
  };
};
