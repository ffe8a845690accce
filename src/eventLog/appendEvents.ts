// Appending a batch: parse, create the partitions it needs, then one transaction. Throws InvalidBatch with
// every bad event when any is bad; nothing of such a batch is appended.
import { sql, type DatabasePool } from 'slonik';
import { isEventError, parseEvent, type EventError, type ParsedEvent } from '../events/parseEvent.ts';
import { createBatchWriter, type AppendResult } from './batchWriter.ts';
import {
  checkMonths,
  createCheckPartitions,
  ensureCheckPartitions,
  rememberCheckMonths,
} from './ensureCheckPartitions.ts';

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

type Chunk = readonly (ParsedEvent | EventError)[];

/** The first chunk, read before the transaction opens, and an iterator over all of them. */
const peekFirst = async (chunks: Iterable<Chunk> | AsyncIterable<Chunk>) => {
  const iterator =
    Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  const first = await iterator.next();
  async function* all(): AsyncGenerator<Chunk> {
    if (first.done === true) return;
    yield first.value;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return { first: first.done === true ? [] : first.value, all: all() };
};

const validOf = (chunk: Chunk) => chunk.filter((e): e is ParsedEvent => !isEventError(e));

/** Appends already parsed chunks in one transaction (the CLI streams chunks through here). */
export const appendParsed = async (
  db: DatabasePool,
  chunks: Iterable<Chunk> | AsyncIterable<Chunk>,
  options: AppendOptions & {
    onChunk?: (done: number) => void;
    /** Lifts the pool's idle-in-transaction limit for this append: the CLI waits on its input inside it. */
    idleTimeoutMs?: number;
    /** Gives up waiting for a lock after this long (SQLSTATE 55P03): HTTP answers 503 instead of hanging. */
    lockTimeoutMs?: number;
  },
): Promise<AppendResult> => {
  let seen = 0;
  const months: string[] = [];
  const { first, all } = await peekFirst(chunks);
  await createCheckPartitions(db, checkMonths(validOf(first)), options.lockTimeoutMs);
  const result = await db.transaction(async (tx) => {
    if (options.idleTimeoutMs !== undefined)
      await tx.query(sql.unsafe`
        SELECT set_config('idle_in_transaction_session_timeout', ${String(options.idleTimeoutMs)}, true)`);
    if (options.lockTimeoutMs !== undefined)
      await tx.query(sql.unsafe`SELECT set_config('lock_timeout', ${String(options.lockTimeoutMs)}, true)`);
    const writer = createBatchWriter(tx, {
      ownHost: options.ownHost ?? null,
      // A stream of chunks (the CLI) is an import: it runs alone among imports (lockOrder.ts).
      multiChunk: !Array.isArray(chunks) || chunks.length > 1,
    });
    for await (const chunk of all) {
      months.push(...(await ensureCheckPartitions(db, tx, checkMonths(validOf(chunk)))));
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
