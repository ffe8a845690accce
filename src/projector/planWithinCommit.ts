// A batch commits with its checkpoint in one script call of bounded size (control/commitWrites.ts).
// When the writes planned for a batch's rows do not fit, the batch is cut: its first half is
// planned again, and so on down to a single event, whose writes are bounded by what ingest admits.
// The checkpoint then moves to just after the last row kept, and the rest is read again.
import type { Checkpoint, LogRow } from '../eventLog/readAfter.ts';

export type WithinCommit<P> = Readonly<{ plan: P; rows: readonly LogRow[]; to: Checkpoint; cut: boolean }>;

export const checkpointAfter = (row: LogRow): Checkpoint => ({ tx: row.tx, pos: row.position });

/**
 * Plans `rows` (read up to `scannedTo`); while the plan does not `fit` and more than one row is
 * left, plans the first half instead. Returns the plan, the rows it covers and where they end.
 */
export const planWithinCommit = async <P>(
  rows: readonly LogRow[],
  scannedTo: Checkpoint,
  plan: (rows: readonly LogRow[]) => Promise<P>,
  fits: (plan: P) => boolean,
): Promise<WithinCommit<P>> => {
  let kept = rows;
  let planned = await plan(kept);
  while (!fits(planned) && kept.length > 1) {
    kept = kept.slice(0, Math.ceil(kept.length / 2));
    planned = await plan(kept);
  }
  const cut = kept.length < rows.length;
  return { plan: planned, rows: kept, to: cut ? checkpointAfter(kept.at(-1)!) : scannedTo, cut };
};
