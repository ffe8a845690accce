// Appending a batch: parse, ensure partitions, then one transaction. Throws InvalidBatch with
// every bad event when any is bad; nothing of such a batch is appended.
import { sql, type DatabasePool } from 'slonik';
import { isEventError, parseEvent, type EventError, type ParsedEvent } from '../events/parseEvent.ts';
import { createBatchWriter, type AppendResult } from './batchWriter.ts';
import { checkMonths, ensureCheckPartitions, rememberCheckMonths } from './ensureCheckPartitions.ts';

export type { AppendResult };

export class InvalidBatch extends Error {
  override readonly name = 'InvalidBatch';
  readonly details: readonly EventError[];
  constructor(details: readonly EventError[]) {
    super(`invalid events: ${details.length}`);
    this.details = details;
  }
}

export type AppendOptions = {
  now: Date;
  onCommitted?: (result: AppendResult) => Promise<void> | void;
  /** The service's own public host (hostOfUrl(PUBLIC_BASE_URL)): no page may claim it. */
  ownHost?: string | null;
};

/** Parses and appends raw events atomically. Throws InvalidBatch. */
export const appendEvents = async (
  db: DatabasePool,
  raw: readonly unknown[],
  options: AppendOptions,
): Promise<AppendResult> => {
  const parsed = raw.map((event, index) => parseEvent(event, index, options.now));
  return appendParsed(db, [parsed], options);
};

/** Appends already parsed chunks in one transaction (the CLI streams chunks through here). */
export const appendParsed = async (
  db: DatabasePool,
  chunks:
    Iterable<readonly (ParsedEvent | EventError)[]> | AsyncIterable<readonly (ParsedEvent | EventError)[]>,
  options: AppendOptions & {
    onChunk?: (done: number) => void;
    /** Lifts the pool's idle-in-transaction limit for this append: the CLI waits on its input inside it. */
    idleTimeoutMs?: number;
  },
): Promise<AppendResult> => {
  let seen = 0;
  const months: string[] = [];
  const result = await db.transaction(async (tx) => {
    if (options.idleTimeoutMs !== undefined)
      await tx.query(sql.unsafe`
        SELECT set_config('idle_in_transaction_session_timeout', ${String(options.idleTimeoutMs)}, true)`);
    const writer = createBatchWriter(tx, options.ownHost ?? null);
    for await (const chunk of chunks) {
      const valid = chunk.filter((e): e is ParsedEvent => !isEventError(e));
      months.push(...(await ensureCheckPartitions(db, tx, checkMonths(valid))));
      await writer.write(chunk);
      seen += chunk.length;
      options.onChunk?.(seen);
    }
    const errors = writer.errors();
    if (errors.length > 0) throw new InvalidBatch(errors);
    return writer.result();
  });
  rememberCheckMonths(db, months);
  await options.onCommitted?.(result);
  return result;
};
