// The active subscribers of some pages as the planner needs them: ids, channels, scope and when
// they were confirmed. Never their addresses: those are read only by the dispatcher, per send.
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

export const activeSubscribers = async (
  db: CommonQueryMethods,
  pages: readonly string[],
): Promise<Map<string, PlannedSubscriber[]>> => {
  const byPage = new Map<string, PlannedSubscriber[]>();
  if (pages.length === 0) return byPage;
  const rows = await db.any(sql.type(Row)`
    SELECT id, page, channel, components, monitor_states, confirmed_at FROM subscribers
    WHERE page = ANY(${sql.array([...pages], 'text')}) AND state = 'active' AND confirmed_at IS NOT NULL
    ORDER BY page, id`);
  for (const row of rows) {
    const list = byPage.get(row.page) ?? [];
    list.push({
      id: row.id,
      channel: row.channel,
      components: row.components,
      monitorStates: row.monitor_states,
      confirmedAt: row.confirmed_at,
    });
    byPage.set(row.page, list);
  }
  return byPage;
};
