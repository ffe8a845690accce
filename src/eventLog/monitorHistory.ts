// A monitor's projected checks as the log holds them, for a backfill older than the recent checks
// kept in Redis.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { TimedCheck } from '../../projections/timeline/timeline.ts';
import type { Checkpoint } from './readAfter.ts';

type HistoryScope = Readonly<{ page: string; monitorId: number; projectedTo: Checkpoint }>;

const Row = z.object({ at: z.number(), position: z.string(), status: z.enum(['up', 'down', 'degraded']) });
const toCheck = (row: z.infer<typeof Row>): TimedCheck => ({
  at: row.at,
  position: BigInt(row.position),
  status: row.status,
});
const instant = (ms: number) => sql.fragment`${new Date(ms).toISOString()}::timestamptz`;
const pair = (check: TimedCheck) => sql.fragment`(${instant(check.at)}, ${String(check.position)}::bigint)`;

/** The (transaction, position) after which the monitor's current membership of its page began. */
const joinedAfter = async (db: CommonQueryMethods, scope: HistoryScope): Promise<Checkpoint> => {
  const { tx, pos } = scope.projectedTo;
  const row = await db.maybeOne(sql.type(z.object({ tx: z.string(), pos: z.string() }))`
    SELECT transaction_id::text AS tx, position::text AS pos FROM event_log
    WHERE page = ${scope.page}
      AND (type = 'page.deleted' OR (type = 'monitor.removed' AND data->>'monitor_id' = ${String(scope.monitorId)}))
      AND (transaction_id, position) <= (${tx}::xid8, ${pos}::bigint)
    ORDER BY transaction_id DESC, position DESC LIMIT 1`);
  return row ?? { tx: '0', pos: '0' };
};

type MonitorHistoryReader = Readonly<{
  /** The last check before `check`, optionally only among those of another status than down. */
  before: (check: TimedCheck, notDown?: boolean) => Promise<TimedCheck | null>;
  /** The first check after `check` (or the first of all, given null), optionally not down. */
  after: (check: TimedCheck | null, notDown?: boolean) => Promise<TimedCheck | null>;
  /** Every check after `from` (all when null) up to and including `to` (to the last when null). */
  between: (from: TimedCheck | null, to: TimedCheck | null) => Promise<TimedCheck[]>;
}>;

export const monitorHistory = async (
  db: CommonQueryMethods,
  scope: HistoryScope,
): Promise<MonitorHistoryReader> => {
  const joined = await joinedAfter(db, scope);
  const { tx, pos } = scope.projectedTo;
  const checks = sql.fragment`
    SELECT at, position::text AS position, data->>'status' AS status FROM event_log
    WHERE type = 'check.recorded' AND data->>'monitor_id' = ${String(scope.monitorId)}
      AND page = ${scope.page}
      AND (transaction_id, position) <= (${tx}::xid8, ${pos}::bigint)
      AND (transaction_id, position) > (${joined.tx}::xid8, ${joined.pos}::bigint)`;
  const status = (notDown: boolean) =>
    notDown ? sql.fragment`AND data->>'status' <> 'down'` : sql.fragment``;
  const one = async (query: ReturnType<typeof sql.fragment>) => {
    const row = await db.maybeOne(sql.type(Row)`${query}`);
    return row === null ? null : toCheck(row);
  };
  return {
    before: (check, notDown = false) =>
      one(sql.fragment`${checks} AND (at, position) < ${pair(check)} ${status(notDown)}
        ORDER BY at DESC, position DESC LIMIT 1`),
    after: (check, notDown = false) =>
      one(sql.fragment`${checks} ${check === null ? sql.fragment`` : sql.fragment`AND (at, position) > ${pair(check)}`}
        ${status(notDown)} ORDER BY at, position LIMIT 1`),
    between: async (from, to) => {
      const rows = await db.any(sql.type(Row)`${checks}
        ${from === null ? sql.fragment`` : sql.fragment`AND (at, position) > ${pair(from)}`}
        ${to === null ? sql.fragment`` : sql.fragment`AND (at, position) <= ${pair(to)}`}
        ORDER BY at, position`);
      return rows.map(toCheck);
    },
  };
};
