// Cuts a batch whose writes do not fit one commit, so it lands with its checkpoint in one call
// (docs/architecture.md, "Projection: exactly once on an at-least-once queue").
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
