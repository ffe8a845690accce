// The notifier's plan for one batch of the log: each event folded into its page, what it notifies
// (if it is news) addressed to the page's subscribers, and the monitors' tracked states moved by
// the checks that are news. Pure: the I/O side loads the pages, tracked states, subscribers and
// heads (the last two chunk by chunk, planChunk.ts), and writes the rows, the states and the
// checkpoint in one transaction.
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { pageUrl } from '../render/pageUrl.ts';
import type { PageState, UrlSettings } from '../types.ts';
import { eventNotice } from './eventNotice.ts';
import { isNews } from './isNews.ts';
import type { NotifiedPage } from './message.ts';
import { trackCheck, type TrackedMonitor } from './monitorStates.ts';
import { EMPTY_NOTIFY_PAGE, evolveNotifyPage, type NotifyPage } from './notifyPage.ts';
import { planChunk, type PageNotice } from './planChunk.ts';
import type { PlannedNotification, PlannedSubscriber, ThreadHead } from './planTypes.ts';

export type NotifyEvent = Readonly<{ event: ProjectedEvent; recordedAt: number }>;

export type LogBatchEvents = Readonly<{
  events: readonly NotifyEvent[];
  /** Each page of the batch as it stood before the batch. */
  pages: ReadonlyMap<string, NotifyPage>;
  /** The tracked states of the batch's monitors (key: monitorKey). */
  monitors: ReadonlyMap<string, TrackedMonitor>;
  urls: UrlSettings;
}>;

export type LogBatchInput = LogBatchEvents &
  Readonly<{
    /** The active subscribers of each page. */
    subscribers: ReadonlyMap<string, readonly PlannedSubscriber[]>;
    heads: ReadonlyMap<string, ThreadHead>;
    coalesceMs: number;
  }>;

export type LogBatchNotices = Readonly<{
  /** What the batch notifies, in log order, not yet addressed. */
  notices: PageNotice[];
  /** The tracked states the batch changed. */
  monitors: Map<string, TrackedMonitor>;
}>;

export type LogBatchPlan = Readonly<{
  rows: PlannedNotification[];
  /** The tracked states the batch changed. */
  monitors: Map<string, TrackedMonitor>;
}>;

export const monitorKey = (page: string, monitorId: number): string => `${page}\u0000${String(monitorId)}`;

export const notifiedPage = (state: PageState, urls: UrlSettings): NotifiedPage => ({
  slug: state.settings.slug,
  title: state.settings.title,
  url: pageUrl(state.settings, urls),
  ...(state.settings.locale === undefined ? {} : { locale: state.settings.locale }),
});

/** The batch's notices and tracked states, whoever its pages' subscribers are. */
export const logBatchNotices = (input: LogBatchEvents): LogBatchNotices => {
  const pages = new Map(input.pages);
  const monitors = new Map<string, TrackedMonitor>();
  const notices: PageNotice[] = [];
  for (const { event, recordedAt } of input.events) {
    const news = isNews(event.at, recordedAt);
    if (event.type === 'check.recorded') {
      if (!news) continue;
      const key = monitorKey(event.page, event.data.monitor_id);
      const tracked = monitors.get(key) ?? input.monitors.get(key) ?? null;
      monitors.set(key, trackCheck(tracked, event.data.status, event.at));
      continue;
    }
    const before = pages.get(event.page) ?? EMPTY_NOTIFY_PAGE;
    const after = evolveNotifyPage(before, event);
    pages.set(event.page, after);
    if (!news || after.state === null) continue;
    const notice = eventNotice(event, { before: before.state, after: after.state });
    if (notice === null) continue;
    notices.push({
      slug: event.page,
      notice,
      page: notifiedPage(after.state, input.urls),
      appendedAt: recordedAt,
      dueAt: recordedAt,
    });
  }
  return { notices, monitors };
};

/** The whole plan of a batch, every subscriber at once (the I/O side plans it chunk by chunk). */
export const planLogBatch = (input: LogBatchInput): LogBatchPlan => {
  const { notices, monitors } = logBatchNotices(input);
  return { rows: planChunk(notices, input.subscribers, input.heads, input.coalesceMs), monitors };
};
