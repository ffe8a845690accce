// Sends what is due through a fixed number of slots: claims rows (a short statement, FOR UPDATE
// SKIP LOCKED with a lease), starts a send in each free slot, claims the next rows while the last
// ones are still going out, and records attempts in batches as they end. A receiver that hangs
// holds one slot until its timeout, never the queue: a run returns once nothing more is due and
// leaves slow sends in their slots.
import type { DatabasePool } from 'slonik';
import type { Logger } from '../shared/logger.ts';
import { createAttemptRecorder } from './attemptRecorder.ts';
import type { Channel } from './channel.ts';
import { claimDue, type Claimed } from './claimDue.ts';
import type { NotifyMetrics } from './notifyMetrics.ts';
import { sendAttempt } from './sendAttempt.ts';
import { CHANNELS, type Senders } from './senders.ts';

export type DispatchDeps = Readonly<{
  db: DatabasePool;
  senders: Senders;
  log: Logger;
  metrics: NotifyMetrics;
  /** Rows claimed at once. */
  claimLimit?: number;
  /** Sends in flight at once (the slots). */
  concurrency?: number;
  random?: () => number;
}>;

export type Dispatcher = Readonly<{
  /** Claims and starts sends until nothing more is due (or 10 claims); returns the rows claimed. */
  run: () => Promise<number>;
  /** Waits for every send in flight and its record (before the pool closes). */
  drain: () => Promise<void>;
}>;

/** Claims per run at most: a run returns now and then, so a stop never waits for a whole backlog. */
const MAX_CLAIMS = 10;

export const createDispatcher = (deps: DispatchDeps): Dispatcher => {
  const channels: Channel[] = CHANNELS.filter((channel) => deps.senders[channel] !== undefined);
  const limit = deps.claimLimit ?? 200;
  const concurrency = deps.concurrency ?? 64;
  const recorder = createAttemptRecorder(deps);
  const sending = new Set<Promise<void>>();
  const slotWaiters: (() => void)[] = [];
  const freeSlot = (): Promise<void> =>
    sending.size < concurrency ? Promise.resolve() : new Promise((resolve) => slotWaiters.push(resolve));
  const start = (claimed: Claimed) => {
    const send: Promise<void> = sendAttempt(deps.senders, claimed, (deps.random ?? Math.random)())
      .then(recorder.add)
      .finally(() => {
        sending.delete(send);
        slotWaiters.shift()?.();
      });
    sending.add(send);
  };
  const run = async (): Promise<number> => {
    const queue: Claimed[] = [];
    const claims = {
      made: 0,
      rows: 0,
      exhausted: false,
      failure: null as Error | null,
      inFlight: null as Promise<void> | null,
    };
    const claimMore = () => {
      claims.made += 1;
      claims.inFlight = claimDue(deps.db, channels, limit)
        .then(
          (rows) => {
            queue.push(...rows);
            claims.rows += rows.length;
            claims.exhausted = rows.length < limit || claims.made >= MAX_CLAIMS;
          },
          (error: unknown) => {
            claims.failure = error as Error;
            claims.exhausted = true;
          },
        )
        .finally(() => {
          claims.inFlight = null;
        });
    };
    for (;;) {
      // The next rows are claimed while the last ones still wait for a slot.
      if (claims.inFlight === null && !claims.exhausted && queue.length < concurrency) claimMore();
      if (queue.length === 0) {
        if (claims.inFlight === null) break;
        await claims.inFlight;
        continue;
      }
      await freeSlot();
      const next = queue.shift();
      if (next !== undefined) start(next);
    }
    if (claims.failure !== null) throw claims.failure;
    return claims.rows;
  };
  return {
    run,
    drain: async () => {
      while (sending.size > 0) await Promise.all([...sending]);
      await recorder.settle();
    },
  };
};

/** Sends everything due now and waits for it to be recorded; returns the rows claimed. */
export const dispatchDue = async (deps: DispatchDeps): Promise<number> => {
  const dispatcher = createDispatcher(deps);
  try {
    return await dispatcher.run();
  } finally {
    await dispatcher.drain();
  }
};
