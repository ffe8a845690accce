// Records which PostgreSQL cluster wrote the log and stops the projecting services on a mismatch
// (docs/operations.md, "Restoring the database").
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';

const REPAIR_COMMAND = 'npm run repair-restore';

const Origin = z.object({
  recorded: z.string().nullable(),
  server: z.string(),
  newest: z.string().nullable(),
  next: z.string(),
});
type LogOrigin = Readonly<{
  /** The system identifier of the cluster that wrote the log (null: never recorded). */
  recorded: string | null;
  server: string;
  /** The log holds transaction ids this server has not assigned yet: rows it cannot read. */
  idsAhead: boolean;
}>;

const readLogOrigin = async (db: CommonQueryMethods): Promise<LogOrigin> => {
  // max(transaction_id) walks the (transaction_id, position) index of each partition backwards.
  const origin = await db.one(sql.type(Origin)`
    SELECT (SELECT system_identifier FROM log_origin) AS recorded,
           (SELECT system_identifier::text FROM pg_control_system()) AS server,
           (SELECT max(transaction_id) FROM event_log)::text AS newest,
           pg_snapshot_xmax(pg_current_snapshot())::text AS next`);
  return {
    recorded: origin.recorded,
    server: origin.server,
    idsAhead: origin.newest !== null && BigInt(origin.newest) >= BigInt(origin.next),
  };
};

export class LogRestored extends Error {
  override readonly name = 'LogRestored';
}

const describe = (origin: LogOrigin): string =>
  [
    `The event log was written by another PostgreSQL cluster (system identifier ${origin.recorded ?? 'unknown'};`,
    `this server is ${origin.server}): the database was restored from a dump or moved.`,
    origin.idsAhead
      ? 'Its events carry transaction ids this server has not reached, so the projectors would not see them,'
      : 'Its transaction ids are readable here, but',
    'the read models in Redis were built from the log as it was before.',
    `Stop the workers and run \`${REPAIR_COMMAND}\` once: it makes the log readable in order and rebuilds`,
    'every read model (docs/operations.md, "Restoring the database").',
  ].join(' ');

/** @throws LogRestored when the log was written by another cluster (or holds ids from the future) */
export const verifyLogOrigin = async (db: DatabasePool): Promise<void> => {
  const origin = await readLogOrigin(db);
  if (origin.recorded === origin.server && !origin.idsAhead) return;
  throw new LogRestored(describe(origin));
};

type Renumbered = Readonly<{ renumbered: number; origin: LogOrigin }>;

/**
 * Makes a restored log readable in order: every row gets this transaction's id (so all become
 * visible together, ordered by position, the order in which each page's events were committed),
 * and this server is recorded as the log's origin. Appends wait for it (table lock). Nothing is
 * renumbered when the log was written here.
 */
export const renumberRestoredLog = (db: DatabasePool): Promise<Renumbered> =>
  db.transaction(async (tx) => {
    await tx.query(sql.unsafe`SET LOCAL statement_timeout = 0`);
    await tx.query(sql.unsafe`LOCK TABLE event_log IN SHARE ROW EXCLUSIVE MODE`);
    const origin = await readLogOrigin(tx);
    // Rows appended here before the repair are renumbered too: the old and new ids interleave.
    const renumbered =
      origin.idsAhead || origin.recorded !== origin.server
        ? (await tx.query(sql.unsafe`UPDATE event_log SET transaction_id = pg_current_xact_id()`)).rowCount
        : 0;
    await tx.query(sql.unsafe`
      INSERT INTO log_origin (system_identifier) VALUES (${origin.server})
      ON CONFLICT (only_row) DO UPDATE SET system_identifier = excluded.system_identifier, recorded_at = now()`);
    return { renumbered, origin };
  });
