// The instants a render's overall status holds for: the maintenance window boundaries (starts and
// ends of the non-empty windows, cancelled ones too) nearest `now` on either side, from the
// indexes the batch keeps (docs/architecture.md, "Window boundaries"). Four bounded reads.
import type { OverallSpan } from '../../projections/embed/overallSpan.ts';
import { pageStateKeys } from '../../projections/pageState/keys.ts';
import type { PageRef } from '../../projections/store/page.ts';
import {
  mapRead,
  tupleRead,
  zsetScoredByScoreDesc,
  zsetScoredByScoreFirst,
  type Read,
  type Scored,
} from '../store/reads.ts';

const scoreOf = (scored: readonly Scored[]): number | null => (scored[0] ? Number(scored[0][1]) : null);

const latest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

export const overallSpanRead = (page: PageRef, now: number): Read<OverallSpan> => {
  const keys = pageStateKeys(page);
  const before = (key: string) => mapRead(zsetScoredByScoreDesc(key, now, '-inf', 1), scoreOf);
  const after = (key: string) => mapRead(zsetScoredByScoreFirst(key, `(${now}`, '+inf', 1), scoreOf);
  return mapRead(
    tupleRead([
      before(keys.windowsByStart),
      before(keys.windowsByEnd),
      after(keys.windowsByStart),
      after(keys.windowsByEnd),
    ]),
    ([startBefore, endBefore, startAfter, endAfter]) => ({
      from: latest(startBefore, endBefore),
      until: earliest(startAfter, endAfter),
    }),
  );
};
