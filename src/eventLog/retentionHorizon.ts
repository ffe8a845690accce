// Checks dated before the retention horizon (migration 0009: the months drop_check_months_before
// dropped) are refused: their month and their ids are gone, so such a check could be neither
// stored nor recognised as a duplicate. The horizon is always more than 400 days back, so a
// batch of recent checks costs no query.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { EventError, ParsedEvent } from '../events/parseEvent.ts';
import { DAY_MS } from '../shared/time.ts';

const NEVER_BEFORE_HORIZON_MS = 366 * DAY_MS;

/** The events of `events` that are checks dated before the horizon, as errors. */
export const checksBeforeHorizon = async (
  tx: CommonQueryMethods,
  events: readonly ParsedEvent[],
): Promise<EventError[]> => {
  const recent = Date.now() - NEVER_BEFORE_HORIZON_MS;
  const old = events.filter((e) => e.type === 'check.recorded' && e.atMs < recent);
  if (old.length === 0) return [];
  const horizon = await tx.maybeOneFirst(
    sql.type(z.object({ horizon: z.string() }))`SELECT horizon::text AS horizon FROM check_retention`,
  );
  if (horizon === null) return [];
  const horizonMs = Date.parse(`${horizon}T00:00:00Z`);
  return old
    .filter((e) => e.atMs < horizonMs)
    .map((e) => ({ index: e.index, message: `at: checks before ${horizon} were dropped by retention` }));
};
