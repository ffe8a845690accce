// Which pages somebody hears from: only they are folded and planned. One index probe per page,
// not a count of its subscribers.
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';

const Row = z.object({ page: z.string() });

/** Those of `pages` with at least one active, confirmed subscriber. */
export const subscribedPages = async (
  db: CommonQueryMethods,
  pages: readonly string[],
): Promise<string[]> => {
  if (pages.length === 0) return [];
  const rows = await db.any(sql.type(Row)`
    SELECT p.page FROM unnest(${sql.array([...pages], 'text')}) AS p(page)
    WHERE EXISTS (
      SELECT 1 FROM subscribers s
      WHERE s.page = p.page AND s.state = 'active' AND s.confirmed_at IS NOT NULL)`);
  return rows.map((row) => row.page);
};
