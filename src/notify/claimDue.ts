// Claims due outbox rows for sending, in one short statement: FOR UPDATE SKIP LOCKED so two
// dispatchers never take one row, and a lease (due_at moved ahead, attempts counted) so a
// dispatcher that dies mid-send leaves the row to be sent again, with the same message id.
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import type { NotificationMessage } from '../../projections/notify/message.ts';
import type { Channel, Recipient } from './channel.ts';

/** Longer than a send can take (10 s timeout): a row still leased is being sent. */
export const LEASE_MS = 60_000;

const Row = z.object({
  source: z.string(),
  message_id: z.string(),
  subscriber_id: z.string(),
  attempts: z.number(),
  payload: z.unknown(),
  page: z.string(),
  channel: z.enum(['email', 'webhook', 'slack', 'teams', 'discord']),
  target: z.string(),
  format: z.enum(['native', 'statuspage']),
  secrets: z.array(z.string()),
});

export type Claimed = Readonly<{
  source: string;
  messageId: string;
  /** This attempt's number, 1 for the first. */
  attempt: number;
  message: NotificationMessage;
  recipient: Recipient;
}>;

export const claimDue = async (
  db: DatabasePool,
  channels: readonly Channel[],
  limit: number,
): Promise<Claimed[]> => {
  if (channels.length === 0) return [];
  const rows = await db.any(sql.type(Row)`
    WITH due AS (
      SELECT n.source, n.subscriber_id FROM notifications n
      JOIN subscribers s ON s.id = n.subscriber_id
      WHERE n.state = 'pending' AND n.due_at <= now() AND s.state = 'active'
        AND s.channel = ANY(${sql.array([...channels], 'text')})
      ORDER BY n.due_at
      LIMIT ${limit}
      FOR UPDATE OF n SKIP LOCKED
    )
    UPDATE notifications n
    SET attempts = n.attempts + 1, due_at = now() + make_interval(secs => ${LEASE_MS / 1000})
    FROM due, subscribers s
    WHERE n.source = due.source AND n.subscriber_id = due.subscriber_id AND s.id = n.subscriber_id
    RETURNING n.source, n.message_id, n.subscriber_id, n.attempts, n.payload, s.page, s.channel, s.target,
      s.format,
      ARRAY(SELECT secret FROM subscriber_secrets k
        WHERE k.subscriber_id = s.id AND (k.expires_at IS NULL OR k.expires_at > now())
        ORDER BY k.created_at DESC) AS secrets`);
  return rows.map((row) => ({
    source: row.source,
    messageId: row.message_id,
    attempt: row.attempts,
    message: row.payload as NotificationMessage,
    recipient: {
      id: row.subscriber_id,
      page: row.page,
      channel: row.channel,
      target: row.target,
      format: row.format,
      secrets: row.secrets,
    },
  }));
};
