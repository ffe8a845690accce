// What one attempt did, atomically: the delivery log row (the last 100 per subscriber are
// kept), then the message sent, scheduled again, or failed, and the subscriber quarantined after
// the last retry, a refusal (SMTP 5xx) or a 410 Gone. A quarantined subscriber's pending messages
// are dropped: enabling it again sends what happens next, not a backlog gone stale.
import { sql, type DatabasePool } from 'slonik';
import { nextRetryDelay } from '../../projections/notify/retrySchedule.ts';
import type { Outcome } from './channel.ts';
import type { Claimed } from './claimDue.ts';

/** What became of the message: the dispatcher's metrics count these. */
export type Settled = 'sent' | 'retrying' | 'quarantined';

const KEPT_DELIVERIES = 100;

export const recordOutcome = async (
  db: DatabasePool,
  claimed: Claimed,
  result: Readonly<{ outcome: Outcome; latencyMs: number; random: number }>,
): Promise<Settled> => {
  const { outcome } = result;
  const { messageId, attempt } = claimed;
  const subscriber = claimed.recipient.id;
  const delay =
    outcome.kind === 'retry' ? nextRetryDelay(attempt, result.random, outcome.retryAfterMs) : null;
  const settled: Settled =
    outcome.kind === 'delivered' ? 'sent' : delay === null ? 'quarantined' : 'retrying';
  // Only this claim's attempt is settled here: a row claimed again after its lease ran out belongs to that claim.
  const mine = sql.fragment`message_id = ${messageId} AND attempts = ${attempt} AND state = 'pending'`;
  const logged = sql.fragment`
    logged AS (
      INSERT INTO notification_deliveries (subscriber_id, message_id, type, outcome, status_code, latency_ms)
      VALUES (${subscriber}, ${messageId}, ${claimed.message.type}, ${outcome.kind}, ${outcome.status},
        ${Math.round(result.latencyMs)})
    ),
    -- Sees the table as the statement began (not the row above): at most one over the 100 for a while.
    trimmed AS (
      DELETE FROM notification_deliveries WHERE subscriber_id = ${subscriber} AND id <= (
        SELECT id FROM notification_deliveries WHERE subscriber_id = ${subscriber}
        ORDER BY id DESC OFFSET ${KEPT_DELIVERIES - 1} LIMIT 1)
    )`;
  // A delivery or a retry is one statement (atomic, one round trip): a fan-out records a thousand.
  if (settled === 'sent') {
    await db.query(sql.unsafe`WITH ${logged}
      UPDATE notifications SET state = 'sent', sent_at = now() WHERE ${mine}`);
    return settled;
  }
  if (settled === 'retrying') {
    await db.query(sql.unsafe`WITH ${logged}
      UPDATE notifications SET due_at = now() + make_interval(secs => ${(delay ?? 0) / 1000}) WHERE ${mine}`);
    return settled;
  }
  return db.transaction(async (tx) => {
    await tx.query(sql.unsafe`WITH ${logged} SELECT 1`);
    await tx.query(sql.unsafe`UPDATE notifications SET state = 'failed' WHERE ${mine}`);
    await tx.query(sql.unsafe`
      UPDATE subscribers SET state = 'quarantined', quarantined_at = now()
      WHERE id = ${subscriber} AND state = 'active'`);
    await tx.query(sql.unsafe`
      UPDATE notifications SET state = 'dropped' WHERE subscriber_id = ${subscriber} AND state = 'pending'`);
    return settled;
  });
};
