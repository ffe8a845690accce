// Plans one chunk of a page's subscribers. A batch's notices are computed once (the page folds),
// then its subscribers come in chunks (one page may have 100,000) and each chunk is planned
// alone: every row and every head belongs to one subscriber, so the chunks' rows are the whole
// plan's rows, each subscriber's in the same order.
import { planNotices, type AddressedNotice } from './planNotices.ts';
import type { PlannedNotification, PlannedSubscriber, ThreadHead } from './planTypes.ts';

/** A notice before it is addressed: `slug` names the page whose subscribers hear of it. */
export type PageNotice = Omit<AddressedNotice, 'subscribers'> & Readonly<{ slug: string }>;

/** The rows of `notices` for the subscribers of one chunk (by page) and the heads of their threads. */
export const planChunk = (
  notices: readonly PageNotice[],
  subscribers: ReadonlyMap<string, readonly PlannedSubscriber[]>,
  heads: ReadonlyMap<string, ThreadHead>,
  coalesceMs: number,
): PlannedNotification[] =>
  planNotices(
    notices.map(({ slug, ...notice }) => ({ ...notice, subscribers: subscribers.get(slug) ?? [] })),
    heads,
    coalesceMs,
  );
