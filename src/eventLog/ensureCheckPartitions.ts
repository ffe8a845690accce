// Creates the monthly partitions of check results ahead of need, each in a short transaction of
// its own (docs/operations.md, "Ingest beside a CLI import").
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import type { ParsedEvent } from '../events/parseEvent.ts';

const committedByDb = new WeakMap<DatabasePool, Set<string>>();
const committedMonths = (db: DatabasePool): Set<string> => {
  const months = committedByDb.get(db) ?? new Set<string>();
  committedByDb.set(db, months);
  return months;
};

export const checkMonths = (events: readonly ParsedEvent[]): Set<string> => {
  const months = new Set<string>();
  for (const e of events)
    if (e.type === 'check.recorded') months.add(new Date(e.atMs).toISOString().slice(0, 7));
  return months;
};

/** Creates missing partitions for `months`; returns the months this call had to check. */
export const ensureCheckPartitions = async (
  pool: DatabasePool,
  tx: CommonQueryMethods,
  months: Set<string>,
): Promise<string[]> => {
  const known = committedMonths(pool);
  const pending = [...months].filter((m) => !known.has(m));
  for (const month of pending)
    await tx.query(sql.unsafe`SELECT ensure_check_partition(${`${month}-01`}::date)`);
  return pending;
};

export const rememberCheckMonths = (pool: DatabasePool, months: readonly string[]): void => {
  const known = committedMonths(pool);
  for (const m of months) known.add(m);
};

/**
 * Creates missing partitions for `months`, each committed at once (outside any append), waiting
 * at most `lockTimeoutMs` for the table lock when given (SQLSTATE 55P03 after that).
 */
export const createCheckPartitions = async (
  pool: DatabasePool,
  months: Iterable<string>,
  lockTimeoutMs?: number,
): Promise<void> => {
  const known = committedMonths(pool);
  for (const month of months) {
    if (known.has(month)) continue;
    await pool.transaction(async (tx) => {
      if (lockTimeoutMs !== undefined)
        await tx.query(sql.unsafe`SELECT set_config('lock_timeout', ${String(lockTimeoutMs)}, true)`);
      await tx.query(sql.unsafe`SELECT ensure_check_partition(${`${month}-01`}::date)`);
    });
    known.add(month);
  }
};

/** This month and the next, as YYYY-MM (UTC). */
export const currentAndNextMonth = (now: Date): string[] => {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return [now.toISOString().slice(0, 7), next.toISOString().slice(0, 7)];
};
