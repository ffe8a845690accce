// Race tests hold a transaction open and go on once another session of the same database waits
// for one of its locks (row, advisory or transaction).
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';

/** Resolves once some session of `db`'s database waits for a lock; throws after about 10 s. */
export const untilSomeoneWaits = async (db: CommonQueryMethods): Promise<void> => {
  for (let i = 0; i < 1000; i += 1) {
    const waiting = await db.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE NOT l.granted AND a.datname = current_database()`);
    if (waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('nobody waited for a lock');
};
