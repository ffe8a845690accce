// The slonik pool. int8 stays a string (positions outgrow Number.MAX_SAFE_INTEGER in theory, and
// they are only compared in SQL); timestamptz becomes epoch milliseconds.
import pg from 'pg';
import {
  createPool,
  SchemaValidationError,
  type DatabasePool,
  type Interceptor,
  type QueryResultRow,
} from 'slonik';

/**
 * The slonik pool, plus a small pg pool for the projector's log read (readAfter.ts): one query
 * per job on its hot path, where slonik's own work per query cost more CPU than the query.
 */
export type Db = DatabasePool & Readonly<{ logPool: pg.Pool }>;
export type { DatabasePool };

// slonik leaves result validation to an interceptor: this is the one its docs recommend.
const resultParser: Interceptor = {
  name: 'resultParser',
  transformRow: (context, query, row) => {
    if (!context.resultParser) return row;
    const result = context.resultParser.safeParse(row);
    if (!result.success) throw new SchemaValidationError(query, row, result.error.issues);
    return result.data as QueryResultRow;
  },
};

// The log reader's keyset query must walk the (transaction_id, position) indexes in order
// (a Merge Append that stops after LIMIT rows). With few rows estimated the planner prefers a
// bitmap scan, which fetches and sorts everything after the checkpoint: unbounded on a backlog.
const withPlannerSettings = (url: string): string => {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('options')) parsed.searchParams.set('options', '-c enable_bitmapscan=off');
  return parsed.toString();
};

const LOG_POOL_SIZE = 4;

/** timestamptz as the slonik pool parses it (epoch ms); int8 is text in pg already. */
const logTypes = new pg.TypeOverrides();
logTypes.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value: string) => Date.parse(value));

const createSlonikPool = (url: string, options: { maximumPoolSize?: number } = {}): Promise<DatabasePool> =>
  createPool(withPlannerSettings(url), {
    interceptors: [resultParser],
    typeParsers: [
      { name: 'int8', parse: (value) => value },
      { name: 'timestamptz', parse: (value) => Date.parse(value) },
    ],
    maximumPoolSize: options.maximumPoolSize ?? 10,
    // An idle open transaction would hold every log reader back (design notes §1).
    idleInTransactionSessionTimeout: 10_000,
    statementTimeout: 60_000,
    // Appends must not be retried blindly by the driver: the caller decides.
    transactionRetryLimit: 0,
    queryRetryLimit: 0,
    // slonik's default sends DISCARD ALL after every query, a second round trip on the projector's
    // hot path; nothing here leaves session state behind (transactions use SET LOCAL and
    // set_config(…, true); the one session lock, partitionIndex.ts, resets and unlocks itself).
    resetConnection: () => Promise.resolve(),
  });

export const createDb = async (url: string, options: { maximumPoolSize?: number } = {}): Promise<Db> => {
  const pool = await createSlonikPool(url, options);
  const logPool = new pg.Pool({
    connectionString: withPlannerSettings(url),
    max: LOG_POOL_SIZE,
    statement_timeout: 60_000,
    types: logTypes,
  });
  // An idle connection that fails (a server restart) must not crash the process: the next query reconnects.
  logPool.on('error', () => undefined);
  const endSlonik = pool.end.bind(pool);
  return Object.assign(pool, {
    logPool,
    end: async () => {
      await Promise.all([logPool.end(), endSlonik()]);
    },
  });
};
