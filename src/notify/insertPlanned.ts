// Writes planned notifications into the outbox. The primary key (source, subscriber_id) keeps
// each (event, subscriber) single: a replay, a rebuild or a second notifier plans the same rows
// again and inserts nothing. An update folded into an open message rewrites that message's
// payload only when its own row was new, so a replay never folds twice.
import { sql, type CommonQueryMethods } from 'slonik';
import type { PlannedNotification } from '../../projections/notify/planTypes.ts';

const recordOf = (row: PlannedNotification, order: number) => ({
  source: row.source,
  subscriber_id: row.subscriberId,
  message_id: row.messageId,
  page: row.page,
  thread: row.thread,
  payload: row.payload,
  due_at: new Date(row.dueAt).toISOString(),
  state: row.state,
  fold_into: row.foldInto ?? null,
  ord: order,
});

/** Rows per statement: one incident to 100,000 subscribers must not become one 200 MB string. */
const CHUNK = 500;

/** Inserts the rows that are new, in order; returns how many were. */
export const insertPlanned = async (
  tx: CommonQueryMethods,
  rows: readonly PlannedNotification[],
): Promise<number> => {
  let inserted = 0;
  // In order: a later fold into a message rewrites the payload an earlier one wrote.
  for (let start = 0; start < rows.length; start += CHUNK)
    inserted += await insertChunk(tx, rows.slice(start, start + CHUNK), start);
  return inserted;
};

const insertChunk = async (
  tx: CommonQueryMethods,
  rows: readonly PlannedNotification[],
  offset: number,
): Promise<number> => {
  const records = JSON.stringify(rows.map((row, index) => recordOf(row, offset + index)));
  const result = await tx.query(sql.unsafe`
    WITH planned AS (
      SELECT * FROM jsonb_to_recordset(${records}::jsonb) AS p(
        source text, subscriber_id text, message_id text, page text, thread text, payload jsonb,
        due_at timestamptz, state text, fold_into text, ord int)
    ), inserted AS (
      INSERT INTO notifications (source, subscriber_id, message_id, page, thread, payload, state, due_at)
      SELECT source, subscriber_id, message_id, page, thread, payload, state, due_at
      FROM planned ORDER BY ord
      ON CONFLICT DO NOTHING
      RETURNING source, subscriber_id
    ), folds AS (
      -- The latest fold into each message carries every update before it.
      SELECT DISTINCT ON (p.fold_into) p.fold_into, p.payload
      FROM planned p JOIN inserted i USING (source, subscriber_id)
      WHERE p.fold_into IS NOT NULL
      ORDER BY p.fold_into, p.ord DESC
    ), folded AS (
      UPDATE notifications n
      SET payload = f.payload || jsonb_build_object('id', n.message_id)
      FROM folds f
      WHERE n.message_id = f.fold_into AND n.state = 'pending' AND n.attempts = 0
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM inserted)::int AS inserted, (SELECT count(*) FROM folded)::int AS folded`);
  return (result.rows[0] as { inserted: number } | undefined)?.inserted ?? 0;
};
