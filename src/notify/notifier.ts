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
import { createDispatcher } from './dispatch.ts';
import { notifyBatch } from './notifyBatch.ts';
import { createNotifyMetrics } from './notifyMetrics.ts';
import { planClock } from './planClock.ts';
import type { Senders } from './senders.ts';
import { createWaker, type Waker } from './waker.ts';

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

export type Notifier = Readonly<{
  /** Plans now rather than at the next look: the projector in this process read new events. */
  wake: () => void;
  stop: () => Promise<void>;
}>;

export const startNotifier = (deps: NotifierDeps): Notifier => {
  const metrics = createNotifyMetrics(deps.registry, { db: deps.db, log: deps.log });
  const batchSize = deps.batchSize ?? 1000;
  const pollMs = deps.pollMs ?? 250;
  const run = { stopped: false };
  const running = () => !run.stopped;
  const planningWaker = createWaker(pollMs);
  const dispatchWaker = createWaker(pollMs);
  /** Runs `step` until it says it is idle, then sleeps; a failure is logged and retried after a sleep. */
  const loop = async (name: string, step: () => Promise<boolean>, waker: Waker) => {
    while (running()) {
      try {
        while (running() && (await step()));
      } catch (error) {
        deps.log.warn({ err: (error as Error).message }, `notifier ${name} failed`);
      }
      if (running()) await waker.sleep();
    }
  };
  const planning = loop(
    'planning',
    async () => {
      const result = await notifyBatch({
        db: deps.db,
        urls: deps.urls,
        coalesceMs: deps.coalesceMs,
        batchSize,
      });
      // A new incident's messages do not wait for the dispatcher's next look.
      if (result.planned > 0) dispatchWaker.wake();
      return result.read === batchSize;
    },
    planningWaker,
  );
  const dispatcher = createDispatcher({
    db: deps.db,
    senders: deps.senders,
    log: deps.log,
    metrics,
  });
  const dispatching = loop('dispatch', async () => (await dispatcher.run()) > 0, dispatchWaker);
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
    wake: planningWaker.wake,
    stop: async () => {
      run.stopped = true;
      planningWaker.wake();
      dispatchWaker.wake();
      await tick.stop();
      await Promise.all([planning, dispatching]);
      await dispatcher.drain(); // the sends still in their slots are recorded before the pool closes
    },
  };
};
