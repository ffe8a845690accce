// The heartbeat scheduler's job: a push monitor whose latest check is older than its interval
// plus grace is down from that deadline. The check's id comes from (monitor, deadline), so two
// schedulers, a restart or a replay append it once; the next push makes the monitor up again.
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { appendEvents, InvalidBatch, type AppendResult } from '../eventLog/appendEvents.ts';
import { pushGraceS } from '../events/monitor.ts';
import { formatTimestamp } from '../shared/time.ts';
import { pushMonitors } from './pageMonitors.ts';

const MISSED_PREFIX = 'push-missed-';

export const missedCheckId = (monitorId: number, deadlineMs: number): string =>
  `${MISSED_PREFIX}${monitorId}-${deadlineMs}`;

const Latest = z.object({ id: z.string(), at: z.number(), event_id: z.string().nullable() });

/** Appends the missed-heartbeat checks due at `now`; the append's result (null when none was due). */
export const appendMissedHeartbeats = async (db: DatabasePool, now: Date): Promise<AppendResult | null> => {
  const monitors = await pushMonitors(db);
  if (monitors.length === 0) return null;
  const latest = await db.any(sql.type(Latest)`
    SELECT m.id::text AS id, l.at, l.event_id
    FROM ${sql.unnest(
      monitors.map((m) => [m.id, m.page]),
      ['int8', 'text'],
    )} AS m(id, page)
    CROSS JOIN LATERAL (
      SELECT at, event_id FROM event_log
      WHERE type = 'check.recorded' AND data->>'monitor_id' = m.id::text AND page = m.page
      ORDER BY at DESC, position DESC LIMIT 1
    ) l`);
  const lastOf = new Map(latest.map((row) => [Number(row.id), row]));
  const due = monitors.flatMap((monitor) => {
    const last = lastOf.get(monitor.id);
    // Never pushed: no deadline yet. Already marked missed: nothing until the next push.
    if (last === undefined || last.event_id?.startsWith(MISSED_PREFIX) === true) return [];
    const interval = monitor.pushIntervalS ?? 0;
    const deadline = last.at + (interval + pushGraceS(interval, monitor.pushGraceS ?? undefined)) * 1000;
    if (deadline > now.getTime()) return [];
    return [
      {
        id: missedCheckId(monitor.id, deadline),
        type: 'check.recorded',
        page: monitor.page,
        at: formatTimestamp(deadline),
        data: { monitor_id: monitor.id, status: 'down', response_time_ms: 0 },
      },
    ];
  });
  if (due.length === 0) return null;
  try {
    return await appendEvents(db, due, { now });
  } catch (error) {
    // One monitor removed meanwhile must not hold back the others: each on its own then.
    if (!(error instanceof InvalidBatch) || due.length === 1) throw error;
    const results = await Promise.all(
      due.map((event) => appendEvents(db, [event], { now }).catch(() => null)),
    );
    return results.reduce<AppendResult | null>(
      (sum, r) =>
        r === null
          ? sum
          : {
              accepted: (sum?.accepted ?? 0) + r.accepted,
              duplicates: (sum?.duplicates ?? 0) + r.duplicates,
              lastPosition: r.lastPosition ?? sum?.lastPosition ?? null,
              pages: [...(sum?.pages ?? []), ...r.pages],
            },
      null,
    );
  }
};
