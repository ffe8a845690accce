// After the chaos, the notifications (notifications.md, "Once"): every outbox row settled, every
// delivery one of its subscriber's sent messages, every sent message received, and a message
// received twice only when a crash or a failed attempt left it to be sent again, under one id.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { classifyDeliveries, type Cause, type DeliveryClasses } from './classifyDeliveries.ts';
import type { ChaosReceivers } from './subscribers.ts';

export type NotifyFindings = DeliveryClasses &
  Readonly<{
    subscribers: number;
    chatSubscribers: number;
    rows: number;
    sent: number;
    coalesced: number;
    /** Rows still pending, failed or dropped. */
    unsettled: number;
    checkpointAtHead: boolean;
    received: number;
    /** Chat bodies the stand-ins refused. */
    chatRefused: number;
    /** Deliveries after the clean rebuild. */
    afterRebuild: number;
  }>;

export const notifyPassed = (f: NotifyFindings): boolean =>
  f.sent > 0 &&
  f.unsettled === 0 &&
  f.checkpointAtHead &&
  f.unverified === 0 &&
  f.chatRefused === 0 &&
  f.foreign === 0 &&
  f.missing === 0 &&
  f.idMismatches === 0 &&
  f.duplicatedWebhooks === f.duplicatedWebhooksSameId &&
  (f.causes.get('unexplained') ?? 0) === 0 &&
  f.afterRebuild === 0;

const count = z.object({ n: z.number() });

export const notifierAtHead = async (db: DatabasePool): Promise<boolean> =>
  db.oneFirst(sql.type(z.object({ caught: z.boolean() }))`
    SELECT coalesce(split_part(c.checkpoint, ':', 2)::bigint >= (SELECT max(position) FROM event_log), false)
      AS caught
    FROM (SELECT 1) one LEFT JOIN notifier_checkpoints c ON true`);

/** Until the notifier has read the whole log and nothing is pending, or `timeoutMs`. */
export const waitForOutboxDrained = async (db: DatabasePool, timeoutMs: number): Promise<void> => {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    const pending = await db.oneFirst(sql.type(count)`
      SELECT count(*)::int AS n FROM notifications WHERE state = 'pending'`);
    if (pending === 0 && (await notifierAtHead(db))) return;
    await sleep(500);
  }
};

/**
 * The messages claimed and not yet recorded (leased, not due): read just after a crash, those the
 * crashed process had in flight are among them. Its own connection, retried: PostgreSQL may be
 * coming back.
 */
export const leasedMessages = async (dbUrl: string): Promise<string[]> => {
  for (let attempt = 0; ; attempt += 1) {
    const client = new pg.Client({ connectionString: dbUrl });
    try {
      await client.connect();
      const { rows } = await client.query<{ message_id: string }>(`
        SELECT message_id FROM notifications WHERE state = 'pending' AND attempts > 0 AND due_at > now()`);
      return rows.map((row) => row.message_id);
    } catch (error) {
      if (attempt >= 100) throw error;
      await sleep(200);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
};

const Row = z.object({
  subscriber_id: z.string(),
  message_id: z.string(),
  state: z.string(),
  payload: z.unknown(),
});

export const notifyFindings = async (
  db: DatabasePool,
  receivers: ChaosReceivers,
  inFlight: ReadonlyMap<string, Cause>,
  afterRebuild: number,
): Promise<NotifyFindings> => {
  const rows = await db.any(
    sql.type(Row)`SELECT subscriber_id, message_id, state, payload FROM notifications`,
  );
  const failedAttempts = new Set(
    await db.anyFirst(sql.type(z.object({ message_id: z.string() }))`
      SELECT DISTINCT message_id FROM notification_deliveries WHERE outcome <> 'delivered'`),
  );
  const sent = rows
    .filter((row) => row.state === 'sent')
    .map((row) => ({ subscriberId: row.subscriber_id, messageId: row.message_id, payload: row.payload }));
  const received = receivers.received();
  return {
    subscribers: receivers.subscribers.length,
    chatSubscribers: receivers.subscribers.filter((s) => s.channel !== 'webhook').length,
    rows: rows.length,
    sent: sent.length,
    coalesced: rows.filter((r) => r.state === 'coalesced').length,
    unsettled: rows.filter((r) => r.state !== 'sent' && r.state !== 'coalesced').length,
    checkpointAtHead: await notifierAtHead(db),
    received: received.length,
    chatRefused: receivers.chatRefused().length,
    afterRebuild,
    ...classifyDeliveries({ subscribers: receivers.subscribers, received, sent, inFlight, failedAttempts }),
  };
};
