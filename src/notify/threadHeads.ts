// The latest message of each (subscriber, thread) the planner coalesces into, read inside the
// planning transaction. Open heads are locked: a dispatcher claims with SKIP LOCKED, so it never
// sends a message while an update is being folded into it.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { headKey } from '../../projections/notify/planNotices.ts';
import type { ThreadHead } from '../../projections/notify/planTypes.ts';
import type { NotificationType } from '../../projections/notify/message.ts';

const HeadRow = z.object({
  subscriber_id: z.string(),
  thread: z.string(),
  source: z.string(),
  message_id: z.string(),
  type: z.string(),
  due_at: z.number(),
  open: z.boolean(),
  carries: z.number(),
});

/**
 * The heads of `threads` (each names its page) for some subscribers (a chunk of the planner's):
 * the newest message (not a coalesced record).
 */
export const readThreadHeads = async (
  tx: CommonQueryMethods,
  threads: readonly string[],
  subscriberIds: readonly string[],
): Promise<Map<string, ThreadHead>> => {
  const heads = new Map<string, ThreadHead>();
  if (threads.length === 0 || subscriberIds.length === 0) return heads;
  const ofChunk = sql.fragment`thread = ANY(${sql.array([...threads], 'text')})
    AND subscriber_id = ANY(${sql.array([...subscriberIds], 'text')})`;
  // Lock the open ones first: one claimed before the lock reads as not open below.
  await tx.query(sql.unsafe`
    SELECT 1 FROM notifications
    WHERE ${ofChunk} AND state = 'pending' AND attempts = 0
    FOR UPDATE`);
  const rows = await tx.any(sql.type(HeadRow)`
    SELECT DISTINCT ON (subscriber_id, thread)
      subscriber_id, thread, source, message_id, payload->>'type' AS type, due_at,
      (state = 'pending' AND attempts = 0) AS open,
      COALESCE((payload->>'coalesced')::int, 1) AS carries
    FROM notifications
    WHERE ${ofChunk} AND state <> 'coalesced'
    ORDER BY subscriber_id, thread, created_at DESC, due_at DESC`);
  for (const row of rows)
    heads.set(headKey(row.subscriber_id, row.thread), {
      source: row.source,
      messageId: row.message_id,
      dueAt: row.due_at,
      type: row.type as NotificationType,
      open: row.open,
      carries: row.carries,
    });
  return heads;
};
