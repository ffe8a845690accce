// Pages as the notifier sees them, folded from the log's non-check events by the read models'
// own evolve: up to a checkpoint (the state before a batch), or to the newest committed event
// (the clock's view). Read from the log, never from Redis: a rebuild or a flushed Redis cannot
// change what the notifier plans.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { EMPTY_NOTIFY_PAGE, foldNotifyPage, type NotifyPage } from '../../projections/notify/notifyPage.ts';
import type { Checkpoint, LogRow } from '../eventLog/readAfter.ts';
import { parseRows } from '../projector/parseRows.ts';

const Row = z.object({
  tx: z.string(),
  position: z.string(),
  type: z.string(),
  page: z.string(),
  at: z.number(),
  recordedAt: z.number(),
  data: z.unknown(),
});

export const loadNotifyPages = async (
  db: CommonQueryMethods,
  pages: readonly string[],
  upTo: Checkpoint | null,
): Promise<Map<string, NotifyPage>> => {
  const loaded = new Map<string, NotifyPage>();
  if (pages.length === 0) return loaded;
  const bound =
    upTo === null
      ? sql.fragment`TRUE`
      : sql.fragment`(transaction_id, position) <= (${upTo.tx}::xid8, ${upTo.pos}::bigint)`;
  const rows = await db.any(sql.type(Row)`
    SELECT transaction_id::text AS tx, position::text AS position, type, page, at,
      recorded_at AS "recordedAt", data
    FROM event_log
    WHERE type <> 'check.recorded' AND page = ANY(${sql.array([...pages], 'text')}) AND ${bound}
    ORDER BY transaction_id, position`);
  const { events } = parseRows(rows as LogRow[]);
  // One pass over the rows, not one per page.
  const byPage = new Map<string, (typeof events)[number][]>();
  for (const event of events) {
    const list = byPage.get(event.page);
    if (list === undefined) byPage.set(event.page, [event]);
    else list.push(event);
  }
  for (const page of pages) loaded.set(page, foldNotifyPage(byPage.get(page) ?? [], EMPTY_NOTIFY_PAGE));
  return loaded;
};
