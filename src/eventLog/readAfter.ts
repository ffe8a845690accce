// Gap-free reading of the log (design notes §1). Positions are taken at insert but become
// visible at commit, so a reader ordered by position alone could skip a late committer. Rows are
// read in (transaction_id, position) order and only below the oldest transaction still open.
import type { Db } from './createDb.ts';

export type Checkpoint = Readonly<{ tx: string; pos: string }>;
export const START: Checkpoint = { tx: '0', pos: '0' };

export const formatCheckpoint = (c: Checkpoint): string => `${c.tx}:${c.pos}`;
export const parseCheckpoint = (text: string | null | undefined): Checkpoint => {
  if (!text) return START;
  const [tx = '0', pos = '0'] = text.split(':');
  return { tx, pos };
};

export type LogRow = Readonly<{
  tx: string;
  position: string;
  type: string;
  page: string;
  at: number; // epoch ms
  /** When it was appended (epoch ms): the notifier tells news from imports by it. */
  recordedAt: number;
  data: unknown; // the projector parses the row once, with StoredEvent
}>;

type ReadAfterOptions = Readonly<{
  limit: number;
  /** Only rows of this projector partition: page_hash % count = index. */
  partition?: { index: number; count: number };
}>;

/** `scannedTo` is the last row read (null when none): the next checkpoint. */
export type ReadResult = Readonly<{ rows: LogRow[]; scannedTo: Checkpoint | null }>;

/**
 * At most `limit` rows after `from`; with a partition, only that partition's rows, by its index
 * (docs/scaling.md, "Reading the log per partition"). Without the index, right but slower.
 * Through the log pool (createDb.ts): the projector's hot path.
 */
export const readAfter = async (db: Db, from: Checkpoint, options: ReadAfterOptions): Promise<ReadResult> => {
  // The count is written as a constant, as in the index expression, so the planner matches it.
  const mine = options.partition
    ? `page_hash % ${String(Math.trunc(options.partition.count))}::bigint = $4`
    : '$4::int IS NULL';
  // Not parsed by zod here: the projector parses each row it applies once, with StoredEvent.
  const { rows } = await db.logPool.query<LogRow>(
    `SELECT transaction_id::text AS tx, position::text AS position, type, page, at,
      recorded_at AS "recordedAt", data FROM event_log
    WHERE ${mine}
      AND (transaction_id, position) > ($1::xid8, $2::bigint)
      AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    -- Qualified names in ORDER BY: a bare position would sort the text alias (10 < 9).
    ORDER BY event_log.transaction_id, event_log.position
    LIMIT $3`,
    [from.tx, from.pos, options.limit, options.partition?.index ?? null],
  );
  const last = rows.at(-1);
  return { rows, scannedTo: last ? { tx: last.tx, pos: last.position } : null };
};
