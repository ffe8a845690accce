// An append whose events are planned inside its own transaction, from state read under a lock
// taken there first (alert state), through the one append path (batchWriter.ts): the plan, the
// events and the state it leaves commit together or not at all.
import { sql, type DatabasePool, type DatabaseTransactionConnection } from 'slonik';
import { InvalidBatch, type AppendResult } from '../eventLog/appendEvents.ts';
import { createBatchWriter } from '../eventLog/batchWriter.ts';
import {
  checkMonths,
  createCheckPartitions,
  ensureCheckPartitions,
  rememberCheckMonths,
} from '../eventLog/ensureCheckPartitions.ts';
import { isEventError, parseEvent, type ParsedEvent } from '../events/parseEvent.ts';

export type Plan = Readonly<{
  events: readonly unknown[];
  /** Writes the state the plan leaves, after the events, in the same transaction. */
  commit: (tx: DatabaseTransactionConnection) => Promise<void>;
}>;

export const appendPlanned = async (
  db: DatabasePool,
  options: Readonly<{
    now: Date;
    /** The months (YYYY-MM) the checks will fall in, as far as known before planning. */
    months: Iterable<string>;
    lockTimeoutMs: number;
    plan: (tx: DatabaseTransactionConnection) => Promise<Plan>;
  }>,
): Promise<AppendResult> => {
  await createCheckPartitions(db, options.months, options.lockTimeoutMs);
  const created: string[] = [];
  const result = await db.transaction(async (tx) => {
    await tx.query(sql.unsafe`SELECT set_config('lock_timeout', ${String(options.lockTimeoutMs)}, true)`);
    const plan = await options.plan(tx);
    const parsed = plan.events.map((event, index) => parseEvent(event, index, options.now));
    const valid = parsed.filter((e): e is ParsedEvent => !isEventError(e));
    created.push(...(await ensureCheckPartitions(db, tx, checkMonths(valid))));
    const writer = createBatchWriter(tx);
    await writer.write(parsed);
    const errors = writer.errors();
    if (errors.length > 0) throw new InvalidBatch(errors);
    await plan.commit(tx);
    return writer.result();
  });
  rememberCheckMonths(db, created);
  return result;
};
