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

export const createDb = (url: string, options: { maximumPoolSize?: number } = {}): Promise<DatabasePool> =>
  createPool(url, {
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
  });
