// Monthly partitions for check results are created on demand, inside the append transaction
// (so a rolled-back batch leaves nothing behind). Months known to exist are remembered per
// process, but only once the transaction that created them has committed.
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
