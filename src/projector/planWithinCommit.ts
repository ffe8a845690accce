// A batch commits with its checkpoint in one script call of bounded size (control/commitWrites.ts).
// When the writes planned for a batch's rows do not fit, the batch is cut: a first part sized
// from how far over they went is planned again, and so on down to a single event, whose writes
// are bounded by what ingest admits.
// The checkpoint then moves to just after the last row kept, and the rest is read again.
import type { Checkpoint, LogRow } from '../eventLog/readAfter.ts';
import { must } from '../shared/must.ts';

type WithinCommit<P> = Readonly<{ plan: P; rows: readonly LogRow[]; to: Checkpoint; cut: boolean }>;

export const checkpointAfter = (row: LogRow): Checkpoint => ({ tx: row.tx, pos: row.position });

/**
 * Plans `rows` (read up to `scannedTo`); while the plan's `load` (share of one commit) is over 1
 * and more than one row is left, plans a first part of them instead, sized so its load should be
 * about 0.8. Returns the plan, the rows it covers and where they end.
 */
export const planWithinCommit = async <P>(
  rows: readonly LogRow[],
  scannedTo: Checkpoint,
  plan: (rows: readonly LogRow[]) => Promise<P>,
  load: (plan: P) => number,
): Promise<WithinCommit<P>> => {
  let kept = rows;
  let planned = await plan(kept);
  for (let over = load(planned); over > 1 && kept.length > 1; over = load(planned)) {
    kept = kept.slice(0, Math.max(1, Math.min(kept.length - 1, Math.floor((kept.length * 0.8) / over))));
    planned = await plan(kept);
  }
  const cut = kept.length < rows.length; // then at least one row is kept
  const to = cut ? checkpointAfter(must(kept.at(-1), 'the last row kept')) : scannedTo;
  return { plan: planned, rows: kept, to, cut };
};
