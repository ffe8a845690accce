// Sends what is due: claims a bounded set of rows, sends each through its channel's Sender (a
// few at a time), and records the attempts in batches as they end. Nothing is held open across a
// send: the claim and each record are short statements of their own. A crash between a send and
// its record sends that message again after the lease, with the same message id (at least once).
import type { DatabasePool } from 'slonik';
import type { Logger } from '../shared/logger.ts';
import type { Channel, Outcome } from './channel.ts';
import { claimDue, type Claimed } from './claimDue.ts';
import type { NotifyMetrics } from './notifyMetrics.ts';
import { recordOutcomes, type Attempt } from './recordOutcome.ts';
import { CHANNELS, type Senders } from './senders.ts';

export type DispatchDeps = Readonly<{
  db: DatabasePool;
  senders: Senders;
  log: Logger;
  metrics: NotifyMetrics;
  /** Rows claimed at once. */
  claimLimit?: number;
  /** Sends in flight at once. */
  concurrency?: number;
  random?: () => number;
}>;

/** Attempts recorded per statement while a round is still sending. */
const RECORD_BATCH = 100;

const sendOne = async (deps: DispatchDeps, claimed: Claimed): Promise<Attempt> => {
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
  return {
    claimed,
    outcome,
    latencyMs: performance.now() - started,
    random: (deps.random ?? Math.random)(),
  };
};

const record = async (deps: DispatchDeps, attempts: readonly Attempt[]): Promise<void> => {
  const settled = await recordOutcomes(deps.db, attempts);
  attempts.forEach(({ claimed, outcome }, index) => {
    const result = settled[index] ?? 'retrying';
    deps.metrics.onAttempt(claimed.recipient.channel, result);
    if (result !== 'sent')
      deps.log.info(
        {
          subscriber: claimed.recipient.id,
          channel: claimed.recipient.channel,
          message: claimed.messageId,
          attempt: claimed.attempt,
          outcome: outcome.kind,
          status: outcome.status,
          settled: result,
        },
        'notification not delivered',
      );
  });
};

/** Claims per call at most: a call returns now and then, so a stop never waits for a whole backlog. */
const MAX_CLAIMS = 10;

/**
 * Sends what is due, claiming the next rows while the last ones are still going out (no round
 * waits for its slowest send); returns how many rows it claimed (0: nothing was due).
 */
export const dispatchDue = async (deps: DispatchDeps): Promise<number> => {
  const channels: Channel[] = CHANNELS.filter((channel) => deps.senders[channel] !== undefined);
  const limit = deps.claimLimit ?? 200;
  const concurrency = deps.concurrency ?? 64;
  const queue: Claimed[] = [];
  const failures: Error[] = [];
  const claims = { made: 0, rows: 0, exhausted: false, inFlight: null as Promise<void> | null };
  const claimMore = (): Promise<void> | null => {
    if (claims.inFlight !== null || claims.exhausted) return claims.inFlight;
    claims.made += 1;
    claims.inFlight = claimDue(deps.db, channels, limit)
      .then(
        (rows) => {
          queue.push(...rows);
          claims.rows += rows.length;
          claims.exhausted = rows.length < limit || claims.made >= MAX_CLAIMS;
        },
        (error: unknown) => {
          failures.push(error as Error);
          claims.exhausted = true;
        },
      )
      .finally(() => {
        claims.inFlight = null;
      });
    return claims.inFlight;
  };
  let ended: Attempt[] = [];
  const recording: Promise<void>[] = [];
  // Caught at once (a rejection nobody awaits yet would end the process), thrown after the round.
  const flush = () => {
    recording.push(record(deps, ended).catch((error: unknown) => void failures.push(error as Error)));
    ended = [];
  };
  const worker = async () => {
    for (;;) {
      if (queue.length < concurrency) void claimMore();
      const next = queue.shift();
      if (next === undefined) {
        const claiming = claims.inFlight;
        if (claiming === null) return;
        await claiming;
        continue;
      }
      ended.push(await sendOne(deps, next));
      if (ended.length >= RECORD_BATCH) flush();
    }
  };
  await claimMore();
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (ended.length > 0) flush();
  await Promise.all(recording);
  const [failure] = failures;
  if (failure !== undefined) throw failure;
  return claims.rows;
};
