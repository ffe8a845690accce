// An event a projection cannot apply (a dead letter) quarantines its page: the page shows what it
// showed before that event, the rest of the partition goes on, and a rebuild still completes.
import { sql, type DatabasePool } from 'slonik';
import type { LogRow } from '../eventLog/readAfter.ts';
import { quarantinePage } from '../../projections/quarantine/storage.ts';
import type { WriteOp } from '../../projections/store/writeOps.ts';
import type { Logger } from '../shared/logger.ts';
import type { DeadLetter } from '../../projections/types.ts';

type PoisonedPage = Readonly<{ page: string; position: string; error: string }>;

/** The page of each dead letter (by its row), first letter per page. */
export const poisonedPages = (rows: readonly LogRow[], letters: readonly DeadLetter[]): PoisonedPage[] => {
  const pageAt = new Map(rows.map((row) => [row.position, row.page]));
  const pages = new Map<string, PoisonedPage>();
  for (const { position, error } of letters) {
    const page = pageAt.get(position);
    if (page !== undefined && !pages.has(page)) pages.set(page, { page, position, error });
  }
  return [...pages.values()];
};

export const quarantineWrites = (tag: string, poisoned: readonly PoisonedPage[], now: number): WriteOp[] =>
  poisoned.map(({ page, position, error }) =>
    quarantinePage(tag, page, { kind: 'event', position, error, since: new Date(now).toISOString() }),
  );

/**
 * Records the dead letters (table dead_letters) and logs each poisoned page once. Called before
 * the batch's Redis commit, so a crash between the two cannot lose a record; the batch projected
 * again after such a crash records the same letters, which the unique (projection, position)
 * index absorbs.
 */
export const recordDeadLetters = async (
  deps: Readonly<{ db: DatabasePool; log: Logger }>,
  projection: string,
  letters: readonly DeadLetter[],
  poisoned: readonly PoisonedPage[],
): Promise<void> => {
  if (letters.length === 0) return;
  const rows = letters.map((letter) => [projection, letter.position, letter.error]);
  await deps.db.query(sql.unsafe`
    INSERT INTO dead_letters (projection, position, error)
    SELECT * FROM ${sql.unnest(rows, ['text', 'int8', 'text'])}
    ON CONFLICT (projection, position) DO NOTHING`);
  for (const p of poisoned)
    deps.log.error(
      { page: p.page, position: p.position, error: p.error },
      'page quarantined: event not applied',
    );
};
