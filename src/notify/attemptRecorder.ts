// Records ended attempts in batches: a hundred at once, or what ended within the last 100 ms. A
// crash before the record sends those messages again after their lease, with the same message id
// (delivery is at least once); a failed record is logged and leaves the same.
import type { DatabasePool } from 'slonik';
import type { Logger } from '../shared/logger.ts';
import type { NotifyMetrics } from './notifyMetrics.ts';
import { recordOutcomes, type Attempt } from './recordOutcomes.ts';

const BATCH = 100;
const WAIT_MS = 100;

export type AttemptRecorder = Readonly<{
  add: (attempt: Attempt) => void;
  /** Records what is waiting now and waits for every record under way. */
  settle: () => Promise<void>;
}>;

type Deps = Readonly<{ db: DatabasePool; log: Logger; metrics: NotifyMetrics }>;

const record = async (deps: Deps, attempts: readonly Attempt[]): Promise<void> => {
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

export const createAttemptRecorder = (deps: Deps): AttemptRecorder => {
  let waiting: Attempt[] = [];
  let timer: NodeJS.Timeout | null = null;
  const recording = new Set<Promise<void>>();
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (waiting.length === 0) return;
    const attempts = waiting;
    waiting = [];
    const written: Promise<void> = record(deps, attempts)
      .catch((error: unknown) => {
        deps.log.warn(
          { err: (error as Error).message, attempts: attempts.length },
          'notification attempts not recorded: sent again after their lease',
        );
      })
      .finally(() => recording.delete(written));
    recording.add(written);
  };
  return {
    add: (attempt) => {
      waiting.push(attempt);
      if (waiting.length >= BATCH) flush();
      else timer ??= setTimeout(flush, WAIT_MS);
    },
    settle: async () => {
      flush();
      await Promise.all([...recording]);
    },
  };
};
