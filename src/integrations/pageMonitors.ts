// The monitors a page has now, with the settings their latest monitor.configured gave them: what
// alerts map to by id or name, and what the heartbeat scheduler watches.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';

export type PageMonitor = Readonly<{
  id: number;
  name: string;
  type: string;
  pushIntervalS: number | null;
  pushGraceS: number | null;
}>;

const Row = z.object({
  id: z.string(),
  page: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  push_interval_s: z.number().nullable(),
  push_grace_s: z.number().nullable(),
});

const toMonitor = (row: z.infer<typeof Row>): PageMonitor => ({
  id: Number(row.id),
  name: row.name,
  type: row.type ?? 'http',
  pushIntervalS: row.push_interval_s,
  pushGraceS: row.push_grace_s,
});

const latestSettings = (where: ReturnType<typeof sql.fragment>) => sql.type(Row)`
  SELECT DISTINCT ON (m.monitor_id) m.monitor_id::text AS id, m.page, e.data->>'name' AS name,
    e.data->>'type' AS type, (e.data->>'push_interval_s')::int AS push_interval_s,
    (e.data->>'push_grace_s')::int AS push_grace_s
  FROM monitors m JOIN pages p ON p.slug = m.page AND NOT p.deleted
  JOIN event_log e ON e.type = 'monitor.configured' AND e.page = m.page
    AND e.data->>'monitor_id' = m.monitor_id::text
  WHERE NOT m.removed AND ${where}
  ORDER BY m.monitor_id, e.position DESC`;

/** The page's monitors, ordered by id; empty for an unknown or deleted page. */
export const pageMonitors = async (db: CommonQueryMethods, page: string): Promise<PageMonitor[]> =>
  (await db.any(latestSettings(sql.fragment`m.page = ${page}`))).map(toMonitor);

/** Every push monitor of every live page, with its page. */
export const pushMonitors = async (db: CommonQueryMethods): Promise<(PageMonitor & { page: string })[]> =>
  (
    await db.any(
      latestSettings(sql.fragment`m.monitor_id::text IN (
        SELECT data->>'monitor_id' FROM event_log
        WHERE type = 'monitor.configured' AND data->>'type' = 'push')`),
    )
  )
    .filter((row) => row.type === 'push' && row.push_interval_s !== null)
    .map((row) => ({ ...toMonitor(row), page: row.page }));

/** Whether the page exists and is not deleted. */
export const pageExists = async (db: CommonQueryMethods, page: string): Promise<boolean> =>
  (await db.maybeOneFirst(sql.type(z.object({ slug: z.string() }))`
    SELECT slug FROM pages WHERE slug = ${page} AND NOT deleted`)) !== null;
