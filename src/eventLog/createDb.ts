// The slonik pool. int8 stays a string (positions outgrow Number.MAX_SAFE_INTEGER in theory, and
// they are only compared in SQL); timestamptz becomes epoch milliseconds.
import {
  createPool,
  SchemaValidationError,
  type DatabasePool,
  type Interceptor,
  type QueryResultRow,
} from 'slonik';

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

export const createDb = (url: string, options: { maximumPoolSize?: number } = {}): Promise<DatabasePool> =>
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
