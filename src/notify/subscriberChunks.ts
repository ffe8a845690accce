// The subscribers of some pages for planning, one chunk at a time: the planner holds the rows,
// heads and payloads of one chunk, never of a whole page (one incident may reach 100,000).
import type { CommonQueryMethods } from 'slonik';
import type { PlannedSubscriber } from '../../projections/notify/planTypes.ts';
import { activeSubscribers, type SubscriberCursor } from './activeSubscribers.ts';

/** Subscribers planned at once: their rows are written before the next chunk is read. */
export const SUBSCRIBER_CHUNK = 2000;

export type SubscriberChunk = Readonly<{
  /** The chunk's subscribers of each page. */
  byPage: ReadonlyMap<string, readonly PlannedSubscriber[]>;
  ids: readonly string[];
}>;

/** Calls `visit` with each chunk of the active subscribers of `pages`, in (page, id) order. */
export const forEachSubscriberChunk = async (
  db: CommonQueryMethods,
  pages: readonly string[],
  size: number,
  visit: (chunk: SubscriberChunk) => Promise<void>,
): Promise<void> => {
  let after: SubscriberCursor | null = null;
  for (;;) {
    const rows = await activeSubscribers(db, pages, after, size);
    const last = rows.at(-1);
    if (last === undefined) return;
    const byPage = new Map<string, PlannedSubscriber[]>();
    for (const { page, ...subscriber } of rows) {
      const list = byPage.get(page);
      if (list === undefined) byPage.set(page, [subscriber]);
      else list.push(subscriber);
    }
    await visit({ byPage, ids: rows.map((row) => row.id) });
    if (rows.length < size) return;
    after = { page: last.page, id: last.id };
  }
};
