// Refuses checks dated before the retention horizon, whose month has been dropped
// (docs/operations.md, "Dropping old checks").
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
