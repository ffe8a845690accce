// The baseline the projection is measured against: the charts response computed from PostgreSQL
// on every request, the straightforward way (a narrow checks table with a primary key on
// (monitor_id, at), four aggregations run in parallel). Uptime is approximated by the share of
// down checks, which is cheaper than the exact time model the projection computes.
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';

const DAY = 86_400_000;
const STATUS = ['up', 'down', 'degraded'] as const;

const Hourly = z.object({
  monitor_id: z.number(),
  bucket: z.number(),
  avg: z.number(),
  uptime: z.number(),
  n: z.number(),
});
const Minute = z.object({ monitor_id: z.number(), bucket: z.number(), avg: z.number(), worst: z.number() });
const Daily = z.object({ day: z.number(), uptime: z.number() });
const Latest = z.object({ monitor_id: z.number(), status: z.number().nullable() });

/** Creates the narrow checks table the baseline reads, filled by generate_series (fast, in the server). */
export const createChecksTable = async (
  db: DatabasePool,
  table: string,
  monitors: readonly number[],
  days: number,
  nowMs: number,
) => {
  const id = sql.identifier([table]);
  const end = Math.floor(nowMs / 60_000) * 60_000;
  await db.query(
    sql.unsafe`CREATE UNLOGGED TABLE ${id} (monitor_id int NOT NULL, at timestamptz NOT NULL, status smallint NOT NULL, response_time_ms int NOT NULL)`,
  );
  await db.query(sql.unsafe`
    INSERT INTO ${id}
    SELECT m, ts, CASE WHEN random() < 0.0005 THEN 1 WHEN random() < 0.001 THEN 2 ELSE 0 END, (40 + 200 * random() * random())::int
    FROM unnest(${sql.array(monitors, 'int4')}) m,
         generate_series(to_timestamp(${(end - days * DAY) / 1000}), to_timestamp(${end / 1000}), interval '1 minute') ts`);
  await db.query(sql.unsafe`ALTER TABLE ${id} ADD PRIMARY KEY (monitor_id, at)`);
  await db.query(sql.unsafe`ANALYZE ${id}`);
};

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export const sqlCharts = async (
  db: DatabasePool,
  table: string,
  monitors: readonly number[],
  nowMs: number,
) => {
  if (!/^bench_checks_\w+$/.test(table)) throw new Error('unknown table');
  const t = sql.identifier([table]);
  const ids = sql.array(monitors, 'int4');
  const today = Math.floor(nowMs / DAY) * DAY;
  const minute = Math.floor(nowMs / 60_000) * 60_000;
  const ts = (ms: number) => sql.fragment`to_timestamp(${ms / 1000})`;
  const [latest, hourly, minutes, daily] = await Promise.all([
    db.any(sql.type(Latest)`
      SELECT m AS monitor_id, (SELECT status FROM ${t} WHERE monitor_id = m ORDER BY at DESC LIMIT 1)::int AS status
      FROM unnest(${ids}) m`),
    db.any(sql.type(Hourly)`
      SELECT monitor_id, floor(extract(epoch FROM at) / 3600)::float8 AS bucket, avg(response_time_ms)::float8 AS avg,
             (100 * (1 - avg((status = 1)::int)))::float8 AS uptime, count(*)::int AS n
      FROM ${t} WHERE monitor_id = ANY(${ids}) AND at >= ${ts(today - DAY)} AND at <= ${ts(nowMs)}
      GROUP BY 1, 2 ORDER BY 1, 2`),
    db.any(sql.type(Minute)`
      SELECT monitor_id, floor(extract(epoch FROM at) / 60)::float8 AS bucket, avg(response_time_ms)::float8 AS avg,
             max(CASE status WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE 0 END)::int AS worst
      FROM ${t} WHERE monitor_id = ANY(${ids}) AND at >= ${ts(minute - 59 * 60_000)} AND at <= ${ts(nowMs)}
      GROUP BY 1, 2 ORDER BY 1, 2`),
    db.any(sql.type(Daily)`
      SELECT day, avg(u)::float8 AS uptime FROM (
        SELECT monitor_id, floor(extract(epoch FROM at) / 86400)::float8 AS day, 100 * (1 - avg((status = 1)::int)) AS u
        FROM ${t} WHERE monitor_id = ANY(${ids}) AND at >= ${ts(today - 89 * DAY)} AND at <= ${ts(nowMs)}
        GROUP BY 1, 2) per_monitor
      GROUP BY day ORDER BY day DESC`),
  ]);
  const worstName = ['up', 'degraded', 'down'] as const;
  const result = monitors.map((id) => {
    const hours = hourly.filter((h) => h.monitor_id === id);
    const todays = hours.filter((h) => h.bucket * 3_600_000 >= today);
    const n = todays.reduce((sum, h) => sum + h.n, 0);
    const hourPoint = (h: (typeof hours)[number]) => ({
      hour: new Date(h.bucket * 3_600_000).getUTCHours(),
      avg_response: Math.round(h.avg),
      uptime: round3(h.uptime),
    });
    const status = latest.find((l) => l.monitor_id === id)?.status ?? 0;
    return {
      id,
      name: `Monitor ${id}`,
      state: STATUS[status] ?? 'up',
      avg_response_time_today: n === 0 ? 0 : Math.round(todays.reduce((sum, h) => sum + h.avg * h.n, 0) / n),
      hourly_data: todays.map(hourPoint),
      minute_data: minutes
        .filter((m) => m.monitor_id === id)
        .map((m) => ({
          minute: new Date(m.bucket * 60_000).toISOString().replace('.000Z', 'Z'),
          response_time: Math.round(m.avg),
          status: worstName[m.worst],
        })),
      yesterday_hourly_data: hours.filter((h) => h.bucket * 3_600_000 < today).map(hourPoint),
    };
  });
  const anyDown = result.some((m) => m.state === 'down');
  return {
    monitors: result,
    overall: anyDown ? 'partial_outage' : 'operational',
    globalDaily: daily.map((d) => ({
      date: new Date(d.day * DAY).toISOString().slice(0, 10),
      uptime: round3(d.uptime),
    })),
    timestamp: Math.floor(nowMs / 1000),
  };
};
