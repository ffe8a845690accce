// Gap-free reading of the log (design notes §1). Positions are taken at insert but become
// visible at commit, so a reader ordered by position alone could skip a late committer. Rows are
// read in (transaction_id, position) order and only below the oldest transaction still open.
import { sql, type CommonQueryMethods } from 'slonik';

export type Checkpoint = Readonly<{ tx: string; pos: string }>;
export const START: Checkpoint = { tx: '0', pos: '0' };

export const formatCheckpoint = (c: Checkpoint): string => `${c.tx}:${c.pos}`;
export const parseCheckpoint = (text: string | null | undefined): Checkpoint => {
  if (!text) return START;
  const [tx = '0', pos = '0'] = text.split(':');
  return { tx, pos };
};

type Row = {
  tx: string;
  position: string;
  type: string;
  page: string;
  at: number; // epoch ms
  data: unknown; // the projector parses the row once, with StoredEvent
  mine: boolean;
};
export type LogRow = Omit<Row, 'mine'>;

export type ReadAfterOptions = Readonly<{
  limit: number;
  /** Only rows of this projector partition: page_hash % count = index. */
  partition?: { index: number; count: number };
}>;

export type ReadResult = Readonly<{ rows: LogRow[]; scannedTo: Checkpoint | null }>;

/**
 * Rows after `from`, at most `limit` scanned. With a partition, only that partition's rows are
 * returned, but `scannedTo` still reports the last row scanned so the checkpoint can move past
 * other partitions' events (a filtered projector must advance over what it ignores).
 */
export const readAfter = async (
  db: CommonQueryMethods,
  from: Checkpoint,
  options: ReadAfterOptions,
): Promise<ReadResult> => {
  const mine = options.partition
    ? sql.fragment`page_hash % ${options.partition.count} = ${options.partition.index}`
    : sql.fragment`true`;
  // Not parsed by zod here: this is the projector's hot path, and the projector parses each row
  // it applies once, with StoredEvent.
  const scanned = (await db.any(sql.unsafe`
    WITH scanned AS (
      SELECT transaction_id, position, type, page, at, page_hash, data FROM event_log
      WHERE (transaction_id, position) > (${from.tx}::xid8, ${from.pos}::bigint)
        AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY transaction_id, position
      LIMIT ${options.limit}
    )
    -- Qualified names in ORDER BY: a bare position would sort the text alias (10 < 9).
    SELECT transaction_id::text AS tx, position::text AS position, type, page, at, data, mine FROM (
      SELECT transaction_id, position, type, page, at, data, true AS mine FROM scanned WHERE ${mine}
      UNION ALL
      (SELECT transaction_id, position, '', '', at, '{}'::jsonb, false FROM scanned
       ORDER BY transaction_id DESC, position DESC LIMIT 1)
    ) rows ORDER BY rows.transaction_id, rows.position, rows.mine DESC`)) as readonly Row[];
  let scannedTo: Checkpoint | null = null;
  const rows: LogRow[] = [];
  for (const row of scanned) {
    if (row.mine)
      rows.push({
        tx: row.tx,
        position: row.position,
        type: row.type,
        page: row.page,
        at: row.at,
        data: row.data,
      });
    else scannedTo = { tx: row.tx, pos: row.position };
  }
  return { rows, scannedTo };
};
