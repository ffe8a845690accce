// The entries both feeds share: one per incident and per maintenance, the most recently updated
// first, 50 at most. Entry ids are tag URIs (RFC 4151) built from the service's host, the day the
// item began and its id, so they never change when an item is edited or the page is renamed.
import { formatTimestamp } from '../../src/shared/time.ts';
import type { IncidentDoc, MaintenanceDoc } from '../types.ts';
import { escapeHtmlAttr as html } from '../render/escape.ts';
import { maintenanceStatus } from '../lists/maintenanceJson.ts';
import { incidentUpdatedAt } from '../lists/incidentUpdatedAt.ts';
import { maintenanceUpdatedAt } from '../lists/maintenanceUpdatedAt.ts';
import { itemUrl } from '../statuspage/incidents.ts';

export type FeedEntry = Readonly<{
  id: string;
  kind: 'incident' | 'maintenance';
  title: string;
  url: string;
  published: number;
  updated: number;
  /** HTML; every interpolated value is already escaped for HTML. */
  content: string;
}>;

export type FeedInput = Readonly<{
  slug: string;
  title: string;
  pageUrl: string;
  baseUrl: string;
  incidents: readonly IncidentDoc[];
  maintenances: readonly MaintenanceDoc[];
  /** The feed's date when it has no entry: the page's latest change. */
  emptyUpdatedAt: number;
  nowMs: number;
}>;

const FEED_LIMIT = 50;

const labels: Readonly<Record<string, string>> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

const when = (ms: number): string => html(formatTimestamp(ms));
const affected = (components: readonly string[]): string =>
  components.length === 0 ? '' : `<p>Affected: ${html(components.join(', '))}</p>`;

const tagUri = (baseUrl: string, startedMs: number, path: string): string =>
  `tag:${new URL(baseUrl).hostname},${formatTimestamp(startedMs).slice(0, 10)}:${path}`;

const incidentEntry = (input: FeedInput, doc: IncidentDoc): FeedEntry => ({
  id: tagUri(
    input.baseUrl,
    doc.startedAt,
    `${encodeURIComponent(input.slug)}/incident/${encodeURIComponent(doc.id)}`,
  ),
  kind: 'incident',
  title: doc.title,
  url: itemUrl(input.pageUrl, 'incident', doc.id),
  published: doc.startedAt,
  updated: doc.updates[doc.updates.length - 1]?.createdAt ?? doc.startedAt,
  content:
    affected(doc.components) +
    [...doc.updates]
      .reverse()
      .map((u) => `<p><b>${labels[u.status]}</b> (${when(u.createdAt)})<br>${html(u.message)}</p>`)
      .join(''),
});

const maintenanceEntry = (input: FeedInput, doc: MaintenanceDoc): FeedEntry => ({
  id: tagUri(
    input.baseUrl,
    doc.createdAt,
    `${encodeURIComponent(input.slug)}/maintenance/${encodeURIComponent(doc.id)}`,
  ),
  kind: 'maintenance',
  title: `Maintenance: ${doc.title}`,
  url: itemUrl(input.pageUrl, 'maintenance', doc.id),
  published: doc.createdAt,
  updated: maintenanceUpdatedAt(doc, input.nowMs),
  content:
    `<p><b>${labels[maintenanceStatus(doc, input.nowMs)]}</b>: ` +
    `${when(doc.scheduledStart)} to ${when(doc.scheduledEnd)}</p>` +
    affected(doc.components) +
    (doc.description === '' ? '' : `<p>${html(doc.description)}</p>`),
});

/**
 * An incident's entry depends on its document and the page's addresses only. Documents decoded
 * from the read models are frozen and shared while unchanged, so each entry is built once per
 * document (an update renders one entry, not fifty).
 */
const incidentEntries = new WeakMap<IncidentDoc, { page: string; entry: FeedEntry }>();
const pageKey = (input: FeedInput): string => `${input.baseUrl}\n${input.pageUrl}\n${input.slug}`;
const incidentEntryOf = (input: FeedInput, doc: IncidentDoc): FeedEntry => {
  const page = pageKey(input);
  const known = incidentEntries.get(doc);
  if (known?.page === page) return known.entry;
  const entry = incidentEntry(input, doc);
  if (Object.isFrozen(doc)) incidentEntries.set(doc, { page, entry });
  return entry;
};

/** An entry's sort keys alone, so a long history is sorted without building every entry's content. */
type Candidate = Readonly<{ id: string; updated: number; build: () => FeedEntry }>;

export const feedEntries = (input: FeedInput): FeedEntry[] => {
  const host = new URL(input.baseUrl).hostname;
  const slug = encodeURIComponent(input.slug);
  const idOf = (startedMs: number, path: string) =>
    `tag:${host},${formatTimestamp(startedMs).slice(0, 10)}:${path}`;
  const candidates: Candidate[] = [
    ...input.incidents.map((doc) => ({
      id: idOf(doc.startedAt, `${slug}/incident/${encodeURIComponent(doc.id)}`),
      updated: incidentUpdatedAt(doc),
      build: () => incidentEntryOf(input, doc),
    })),
    ...input.maintenances.map((doc) => ({
      id: idOf(doc.createdAt, `${slug}/maintenance/${encodeURIComponent(doc.id)}`),
      updated: maintenanceUpdatedAt(doc, input.nowMs),
      build: () => maintenanceEntry(input, doc),
    })),
  ];
  return candidates
    .sort((a, b) => b.updated - a.updated || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, FEED_LIMIT)
    .map((candidate) => candidate.build());
};

/** `render` remembered per entry object (a feed format's XML of an entry). */
export const oncePerEntry = (render: (entry: FeedEntry) => string): ((entry: FeedEntry) => string) => {
  const rendered = new WeakMap<FeedEntry, string>();
  return (entry) => {
    const known = rendered.get(entry);
    if (known !== undefined) return known;
    const text = render(entry);
    rendered.set(entry, text);
    return text;
  };
};

/** The feed's own date: its newest entry's, else the page's latest change. */
export const feedUpdated = (input: FeedInput, entries: readonly FeedEntry[]): number =>
  entries[0]?.updated ?? input.emptyUpdatedAt;

export const feedUrl = (baseUrl: string, slug: string, format: 'atom' | 'rss'): string =>
  `${baseUrl.replace(/\/+$/, '')}/s/${encodeURIComponent(slug)}/feed.${format}`;
