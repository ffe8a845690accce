// The notifier's own position in the log (notifier_checkpoints), apart from the projector's: a
// read-model rebuild never moves it, so a rebuild sends nothing.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { formatCheckpoint, parseCheckpoint, type Checkpoint } from '../eventLog/readAfter.ts';

export const NOTIFIER = 'notifier';

const Row = z.object({ checkpoint: z.string() });

export const readCheckpoint = async (db: CommonQueryMethods): Promise<Checkpoint> =>
  parseCheckpoint(
    (await db.maybeOne(sql.type(Row)`SELECT checkpoint FROM notifier_checkpoints WHERE name = ${NOTIFIER}`))
      ?.checkpoint,
  );

/** The checkpoint, locked until the transaction ends: one notifier plans a stretch of the log at a time. */
export const lockCheckpoint = async (tx: CommonQueryMethods): Promise<Checkpoint> => {
  await tx.query(sql.unsafe`
    INSERT INTO notifier_checkpoints (name, checkpoint) VALUES (${NOTIFIER}, '0:0') ON CONFLICT DO NOTHING`);
  const row = await tx.one(
    sql.type(Row)`SELECT checkpoint FROM notifier_checkpoints WHERE name = ${NOTIFIER} FOR UPDATE`,
  );
  return parseCheckpoint(row.checkpoint);
};

export const saveCheckpoint = async (tx: CommonQueryMethods, to: Checkpoint): Promise<void> => {
  await tx.query(sql.unsafe`
    UPDATE notifier_checkpoints SET checkpoint = ${formatCheckpoint(to)}, updated_at = now()
    WHERE name = ${NOTIFIER}`);
};
