// The active subscribers of some pages as the planner needs them: ids, channels, scope and when
// they were confirmed. Never their addresses: those are read only by the dispatcher, per send.
// Read a chunk at a time, after a (page, id) cursor: an index walk, however many a page has.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { PlannedSubscriber } from '../../projections/notify/planTypes.ts';

const Row = z.object({
  id: z.string(),
  page: z.string(),
  channel: z.enum(['email', 'webhook', 'slack', 'teams', 'discord']),
  components: z.array(z.string()),
  monitor_states: z.boolean(),
  confirmed_at: z.number(),
});

export type PageSubscriber = PlannedSubscriber & Readonly<{ page: string }>;

/** Where a chunk ended: the next one starts after it. */
export type SubscriberCursor = Readonly<{ page: string; id: string }>;

/** Up to `limit` active subscribers of `pages` after `after`, in (page, id) order. */
export const activeSubscribers = async (
  db: CommonQueryMethods,
  pages: readonly string[],
  after: SubscriberCursor | null,
  limit: number,
): Promise<PageSubscriber[]> => {
  if (pages.length === 0) return [];
  const from = after === null ? sql.fragment`TRUE` : sql.fragment`(page, id) > (${after.page}, ${after.id})`;
  const rows = await db.any(sql.type(Row)`
    SELECT id, page, channel, components, monitor_states, confirmed_at FROM subscribers
    WHERE page = ANY(${sql.array([...pages], 'text')}) AND state = 'active' AND confirmed_at IS NOT NULL
      AND ${from}
    ORDER BY page, id
    LIMIT ${limit}`);
  return rows.map((row) => ({
    id: row.id,
    page: row.page,
    channel: row.channel,
    components: row.components,
    monitorStates: row.monitor_states,
    confirmedAt: row.confirmed_at,
  }));
};
