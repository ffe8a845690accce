// What attempts did: the delivery log rows (the last 100 per subscriber are kept), then each
// message sent, scheduled again, or failed, and the subscriber quarantined after the last retry,
// a refusal (SMTP 5xx) or a 410 Gone. A quarantined subscriber's pending messages are dropped:
// enabling it again sends what happens next, not a backlog gone stale.
import { sql, type DatabasePool } from 'slonik';
import { nextRetryDelay } from '../../projections/notify/retrySchedule.ts';
import type { Outcome } from './channel.ts';
import type { Claimed } from './claimDue.ts';

/** What became of the message: the dispatcher's metrics count these. */
export type Settled = 'sent' | 'retrying' | 'quarantined';

export type Attempt = Readonly<{ claimed: Claimed; outcome: Outcome; latencyMs: number; random: number }>;

const KEPT_DELIVERIES = 100;
/** Attempts per statement: a fan-out of a thousand is a few round trips, not a thousand. */
const CHUNK = 500;

type Decided = Readonly<{ attempt: Attempt; settled: Settled; delayMs: number | null }>;

const decide = (attempt: Attempt): Decided => {
  const { outcome, claimed } = attempt;
  const delayMs =
    outcome.kind === 'retry' ? nextRetryDelay(claimed.attempt, attempt.random, outcome.retryAfterMs) : null;
  const settled: Settled =
    outcome.kind === 'delivered' ? 'sent' : delayMs === null ? 'quarantined' : 'retrying';
  return { attempt, settled, delayMs };
};

const recordOf = ({ attempt, delayMs }: Decided, ord: number) => ({
  ord,
  source: attempt.claimed.source,
  subscriber_id: attempt.claimed.recipient.id,
  message_id: attempt.claimed.messageId,
  attempt: attempt.claimed.attempt,
  type: attempt.claimed.message.type,
  outcome: attempt.outcome.kind,
  status_code: attempt.outcome.status,
  latency_ms: Math.round(attempt.latencyMs),
  retry_secs: delayMs === null ? null : delayMs / 1000,
});

/** The delivery log rows of `records`, and each subscriber's log trimmed to its last 100. */
const logged = (records: string) => sql.fragment`
  o AS (
    SELECT * FROM jsonb_to_recordset(${records}::jsonb) AS o(ord int, source text, subscriber_id text,
      message_id text, attempt int, type text, outcome text, status_code int, latency_ms int, retry_secs float8)
  ),
  logged AS (
    INSERT INTO notification_deliveries (subscriber_id, message_id, type, outcome, status_code, latency_ms)
    SELECT subscriber_id, message_id, type, outcome, status_code, latency_ms FROM o ORDER BY ord
  ),
  -- Sees the table as the statement began (not the rows above): a subscriber's log is over the
  -- 100 by at most this statement's rows until its next attempt.
  trimmed AS (
    DELETE FROM notification_deliveries d USING (SELECT DISTINCT subscriber_id FROM o) s
    WHERE d.subscriber_id = s.subscriber_id AND d.id <= (
      SELECT id FROM notification_deliveries x WHERE x.subscriber_id = s.subscriber_id
      ORDER BY id DESC OFFSET ${KEPT_DELIVERIES - 1} LIMIT 1)
  )`;

/** Only the claim's own attempt is settled: a row claimed again after its lease ran out belongs to that claim. */
const mine = sql.fragment`n.source = o.source AND n.subscriber_id = o.subscriber_id
  AND n.attempts = o.attempt AND n.state = 'pending'`;

/** Deliveries and retries, any number, one statement per chunk (atomic per chunk). */
const recordSettled = async (db: DatabasePool, decided: readonly Decided[]): Promise<void> => {
  for (let start = 0; start < decided.length; start += CHUNK) {
    const records = JSON.stringify(decided.slice(start, start + CHUNK).map(recordOf));
    await db.query(sql.unsafe`WITH ${logged(records)}
      UPDATE notifications n SET
        state = CASE WHEN o.retry_secs IS NULL THEN 'sent' ELSE n.state END,
        sent_at = CASE WHEN o.retry_secs IS NULL THEN now() ELSE n.sent_at END,
        due_at = CASE WHEN o.retry_secs IS NULL THEN n.due_at ELSE now() + make_interval(secs => o.retry_secs) END
      FROM o WHERE ${mine}`);
  }
};

/** The last attempt, a refusal or a 410: the message fails and the subscriber is set aside. */
const recordQuarantine = (db: DatabasePool, decided: Decided): Promise<void> =>
  db.transaction(async (tx) => {
    const records = JSON.stringify([recordOf(decided, 0)]);
    const subscriber = decided.attempt.claimed.recipient.id;
    await tx.query(sql.unsafe`WITH ${logged(records)}
      UPDATE notifications n SET state = 'failed' FROM o WHERE ${mine}`);
    await tx.query(sql.unsafe`
      UPDATE subscribers SET state = 'quarantined', quarantined_at = now()
      WHERE id = ${subscriber} AND state = 'active'`);
    await tx.query(sql.unsafe`
      UPDATE notifications SET state = 'dropped' WHERE subscriber_id = ${subscriber} AND state = 'pending'`);
  });

/** Records `attempts`; returns what became of each, in order. */
export const recordOutcomes = async (db: DatabasePool, attempts: readonly Attempt[]): Promise<Settled[]> => {
  const decided = attempts.map(decide);
  await recordSettled(
    db,
    decided.filter(({ settled }) => settled !== 'quarantined'),
  );
  for (const one of decided) if (one.settled === 'quarantined') await recordQuarantine(db, one);
  return decided.map(({ settled }) => settled);
};
