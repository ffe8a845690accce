// The monitors' states as the notifier tracks them (notifier_monitor_states, 0012): read for a
// batch's monitors, written back in the batch's transaction.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { monitorKey } from '../../projections/notify/planLogBatch.ts';
import type { TrackedMonitor } from '../../projections/notify/monitorStates.ts';

const Status = z.enum(['up', 'degraded', 'down']);
const Row = z.object({
  page: z.string(),
  monitor_id: z.number(),
  state: Status,
  since: z.number(),
  last_at: z.number(),
  notified_state: Status.nullable(),
});
export type TrackedRow = z.infer<typeof Row>;

const trackedOf = (row: TrackedRow): TrackedMonitor => ({
  state: row.state,
  since: row.since,
  lastAt: row.last_at,
  notifiedState: row.notified_state,
});

export const readTracked = async (
  db: CommonQueryMethods,
  monitors: readonly { page: string; monitorId: number }[],
): Promise<Map<string, TrackedMonitor>> => {
  const found = new Map<string, TrackedMonitor>();
  if (monitors.length === 0) return found;
  const rows = await db.any(sql.type(Row)`
    SELECT page, monitor_id, state, since, last_at, notified_state FROM notifier_monitor_states
    WHERE (page, monitor_id) IN (
      SELECT * FROM unnest(${sql.array(
        monitors.map((m) => m.page),
        'text',
      )}::text[], ${sql.array(
        monitors.map((m) => m.monitorId),
        'int4',
      )}::int[]))`);
  for (const row of rows) found.set(monitorKey(row.page, row.monitor_id), trackedOf(row));
  return found;
};

/** The monitors whose state differs from the one last notified, oldest change first. */
export const readUnsettled = async (db: CommonQueryMethods, limit: number): Promise<TrackedRow[]> => [
  ...(await db.any(sql.type(Row)`
      SELECT page, monitor_id, state, since, last_at, notified_state FROM notifier_monitor_states
      WHERE notified_state IS DISTINCT FROM state ORDER BY since LIMIT ${limit}`)),
];

export const writeTracked = async (
  tx: CommonQueryMethods,
  changed: ReadonlyMap<string, TrackedMonitor>,
): Promise<void> => {
  if (changed.size === 0) return;
  const records = JSON.stringify(
    [...changed].map(([key, t]) => {
      const [page = '', id = '0'] = key.split('\u0000');
      return {
        page,
        monitor_id: Number(id),
        state: t.state,
        since: new Date(t.since).toISOString(),
        last_at: new Date(t.lastAt).toISOString(),
        notified_state: t.notifiedState,
      };
    }),
  );
  await tx.query(sql.unsafe`
    INSERT INTO notifier_monitor_states (page, monitor_id, state, since, last_at, notified_state)
    SELECT page, monitor_id, state, since, last_at, notified_state
    FROM jsonb_to_recordset(${records}::jsonb) AS r(
      page text, monitor_id int, state text, since timestamptz, last_at timestamptz, notified_state text)
    ON CONFLICT (page, monitor_id) DO UPDATE SET
      state = EXCLUDED.state, since = EXCLUDED.since, last_at = EXCLUDED.last_at`);
};

/** Records a state as notified (or as the baseline when nobody asked for it). */
export const markNotified = async (
  tx: CommonQueryMethods,
  row: Pick<TrackedRow, 'page' | 'monitor_id' | 'state' | 'since'>,
): Promise<void> => {
  await tx.query(sql.unsafe`
    UPDATE notifier_monitor_states SET notified_state = ${row.state}
    WHERE page = ${row.page} AND monitor_id = ${row.monitor_id} AND state = ${row.state}
      AND since = ${new Date(row.since).toISOString()}::timestamptz`);
};
