// The outputs readers subscribe to: the Atom and RSS feeds and the Statuspage-compatible
// documents, stored as ready bytes.
import { renderAtom } from '../feeds/feedAtom.ts';
import { feedEntries, type FeedInput } from '../feeds/feedEntries.ts';
import { renderRss } from '../feeds/feedRss.ts';
import { renderStatuspage } from '../statuspage/documents.ts';
import type { MonitorStatus, OverallStatus, PageState, UrlSettings } from '../types.ts';
import { putFeeds } from '../feeds/storage.ts';
import type { PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { putStatuspage } from '../statuspage/storage.ts';

type SubscriptionInput = Readonly<{
  page: PageRef;
  state: PageState;
  pageUrl: string;
  urls: UrlSettings;
  overall: OverallStatus;
  monitors: readonly MonitorStatus[];
  now: number;
  /** Render the feeds too (incidents, maintenances or settings changed, or the clock moved one). */
  feeds: boolean;
}>;

export const renderSubscriptions = (input: SubscriptionInput): WriteOp[] => {
  const { page, state, now } = input;
  const incidents = Object.values(state.incidents);
  const maintenances = Object.values(state.maintenances);
  const writes = [
    putStatuspage(
      page,
      renderStatuspage({
        slug: page.slug,
        title: state.settings.title,
        pageUrl: input.pageUrl,
        overall: input.overall,
        monitors: input.monitors,
        incidents,
        maintenances,
        nowMs: now,
      }),
    ),
  ];
  if (!input.feeds) return writes;
  const feed: FeedInput = {
    slug: page.slug,
    title: state.settings.title,
    pageUrl: input.pageUrl,
    baseUrl: input.urls.baseUrl,
    incidents,
    maintenances,
    // Not the page's latest event: checks do not render the feed, so that would depend on where
    // batches happen to end, and a rebuild would disagree with the incremental models.
    emptyUpdatedAt: state.settings.configuredAt ?? state.updatedAt ?? 0,
    nowMs: now,
  };
  const entries = feedEntries(feed); // both feeds show the same entries
  const atom = renderAtom(feed, entries);
  writes.push(
    putFeeds(page, { atom: atom.body, rss: renderRss(feed, entries).body, modified: atom.updated }),
  );
  return writes;
};
