// The outputs readers subscribe to: the Atom and RSS feeds and the Statuspage-compatible
// documents, stored as ready bytes like every other output. The feeds only change with incidents,
// maintenances and page settings, so they are rendered with those; the Statuspage documents carry
// component statuses and so are rendered with every render of the page.
import { renderAtom } from '../../projections/render/feeds/feedAtom.ts';
import type { FeedInput } from '../../projections/render/feeds/feedEntries.ts';
import { renderRss } from '../../projections/render/feeds/feedRss.ts';
import { renderStatuspage } from '../../projections/render/statuspage/documents.ts';
import type { MonitorSnapshot, OverallStatus, PageState } from '../../projections/types.ts';
import { toBytes } from '../readModels/bytes.ts';
import type { pageKeys } from '../readModels/keys.ts';
import type { CommandList } from './commands.ts';

export type SubscriptionInput = Readonly<{
  keys: ReturnType<typeof pageKeys>;
  state: PageState;
  pageUrl: string;
  baseUrl: string;
  overall: OverallStatus;
  monitors: readonly MonitorSnapshot[];
  updatedAt: number;
  now: number;
  feeds: boolean;
}>;

export const renderSubscriptions = (out: CommandList, input: SubscriptionInput): void => {
  const { keys, state, now } = input;
  const incidents = Object.values(state.incidents);
  const maintenances = Object.values(state.maintenances);
  const documents = renderStatuspage({
    slug: state.settings.slug,
    title: state.settings.title,
    pageUrl: input.pageUrl,
    updatedAt: input.updatedAt,
    overall: input.overall,
    monitors: input.monitors,
    incidents,
    maintenances,
    nowMs: now,
  });
  out.push(
    'HSET',
    keys.statuspage,
    ...Object.entries(documents).flatMap(([name, body]) => [name, toBytes(body)]),
  );
  if (!input.feeds) return;
  const feed: FeedInput = {
    slug: state.settings.slug,
    title: state.settings.title,
    pageUrl: input.pageUrl,
    baseUrl: input.baseUrl,
    incidents,
    maintenances,
    emptyUpdatedAt: state.updatedAt ?? 0,
    nowMs: now,
  };
  const atom = renderAtom(feed);
  out.push(
    'HSET',
    keys.feeds,
    'atom',
    toBytes(atom.body),
    'rss',
    toBytes(renderRss(feed).body),
    'modified',
    atom.updated,
  );
};
