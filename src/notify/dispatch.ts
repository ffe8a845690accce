// Sends what is due: claims a bounded set of rows, sends each through its channel's Sender (a
// few at a time), and records each attempt as it ends. Nothing is held open across a send: the
// claim and each record are short transactions of their own.
import type { DatabasePool } from 'slonik';
import type { Logger } from '../shared/logger.ts';
import type { Channel, Outcome } from './channel.ts';
import { claimDue, type Claimed } from './claimDue.ts';
import type { NotifyMetrics } from './notifyMetrics.ts';
import { recordOutcome } from './recordOutcome.ts';
import { CHANNELS, type Senders } from './senders.ts';

export type DispatchDeps = Readonly<{
  db: DatabasePool;
  senders: Senders;
  log: Logger;
  metrics: NotifyMetrics;
  /** Rows claimed at once, and sends in flight at once. */
  claimLimit?: number;
  concurrency?: number;
  random?: () => number;
}>;

const sendOne = async (deps: DispatchDeps, claimed: Claimed): Promise<void> => {
  const sender = deps.senders[claimed.recipient.channel];
  const started = performance.now();
  let outcome: Outcome;
  try {
    if (sender === undefined) throw new Error('no sender for the channel');
    outcome = await sender(claimed.recipient, claimed.message);
  } catch (error) {
    // A sender that throws is a bug or an outage of its own: try again later, like a 5xx.
    outcome = { kind: 'retry', status: null, retryAfterMs: null, reason: (error as Error).message };
  }
  const latencyMs = performance.now() - started;
  const settled = await recordOutcome(deps.db, claimed, {
    outcome,
    latencyMs,
    random: (deps.random ?? Math.random)(),
  });
  deps.metrics.onAttempt(claimed.recipient.channel, settled);
  if (settled !== 'sent')
    deps.log.info(
      {
        subscriber: claimed.recipient.id,
        channel: claimed.recipient.channel,
        message: claimed.messageId,
        attempt: claimed.attempt,
        outcome: outcome.kind,
        status: outcome.status,
        settled,
      },
      'notification not delivered',
    );
};

/** One round: returns how many rows it claimed (as many as the limit: call again). */
export const dispatchDue = async (deps: DispatchDeps): Promise<number> => {
  const channels: Channel[] = CHANNELS.filter((channel) => deps.senders[channel] !== undefined);
  const claimed = await claimDue(deps.db, channels, deps.claimLimit ?? 200);
  const queue = [...claimed];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await sendOne(deps, next);
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 64, queue.length) }, worker));
  return claimed.length;
};
