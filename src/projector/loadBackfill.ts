// Reads what planBackfill needs from the log (I/O): the check before the earliest backfilled one
// (and where its failure began, when down), the first check after the latest backfilled one that
// is not down, and every projected check between them.
import type { CommonQueryMethods } from 'slonik';
import { compareChecks } from '../../projections/timeline/timeline.ts';
import { monitorHistory } from '../eventLog/monitorHistory.ts';
import type { Checkpoint } from '../eventLog/readAfter.ts';
import type { BackfillSpan } from '../../projections/timeline/planBackfill.ts';
import { earliestCheck, type MonitorChecks } from '../../projections/timeline/planChecks.ts';
import type { TimelineHead } from '../../projections/timeline/codec.ts';

/** The log and how far it is projected: the checkpoint the batch started from. */
export type ProjectedLog = Readonly<{ db: CommonQueryMethods; projectedTo: Checkpoint }>;

export const loadBackfill = async (
  log: ProjectedLog,
  page: string,
  m: MonitorChecks & Readonly<{ head: TimelineHead }>,
): Promise<BackfillSpan> => {
  const history = await monitorHistory(log.db, {
    page,
    monitorId: m.monitorId,
    projectedTo: log.projectedTo,
  });
  const { head } = m;
  const late = m.checks.filter((c) => compareChecks(c, head.last) < 0);
  const latest = late.reduce((a, b) => (compareChecks(a, b) >= 0 ? a : b));
  const anchor = await history.before(earliestCheck(m.checks));
  let anchorRunStart: number | null = null;
  if (anchor?.status === 'down') {
    const lastUp = await history.before(anchor, true);
    anchorRunStart = (await history.after(lastUp))?.at ?? anchor.at;
  }
  const resync = await history.after(latest, true);
  return { anchor, anchorRunStart, window: await history.between(anchor, resync), resync };
};
