// The parts of the embed status response (EmbedStatus): those that change with events are stored
// by the projector (head, incidents, tail); rtm and upd follow the checks and the clock and are
// computed when read (docs/architecture.md, "Answers assembled when read").
import type { EmbedIncident, EmbedStatus } from '../../src/contract/responseSchemas.ts';
import { DAY_MS, MINUTE_MS, floorTo, formatTimestamp } from '../../src/shared/time.ts';
import { pageDayUptime } from '../figures/pageDayUptime.ts';
import type { IncidentDoc, MonitorSnapshot, MonitorStatus, OverallStatus } from '../types.ts';

/** `head` = page, page_url and overall; `updated` is added when read (embedBody). */
export type EmbedParts = { head: string; incidents: string; tail: string };
type EmbedInput = Readonly<{
  slug: string;
  pageUrl: string;
  overall: OverallStatus;
  monitors: readonly MonitorStatus[];
  incidents: readonly IncidentDoc[];
}>;

const RTM_MINUTES = 240;
const UPD_DAYS = 30;

/** Active incidents, newest first (started_at descending, then id ascending). */
const embedIncidents = (incidents: readonly IncidentDoc[]): EmbedIncident[] =>
  incidents
    .filter((doc) => doc.state !== 'resolved')
    .sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((doc) => ({
      id: doc.id,
      title: doc.title,
      state: doc.state,
      started: formatTimestamp(doc.startedAt),
      component: doc.components.join(', '),
    }));

/** Rounded mean response time of all checks of each of the 240 minutes ending now; null when empty. */
export const rtmMinutes = (monitors: readonly MonitorSnapshot[], nowMs: number): (number | null)[] => {
  const values: (number | null)[] = [];
  const current = floorTo(nowMs, MINUTE_MS);
  for (let minute = current - (RTM_MINUTES - 1) * MINUTE_MS; minute <= current; minute += MINUTE_MS) {
    let n = 0;
    let rt = 0;
    for (const monitor of monitors) {
      const bucket = monitor.minutes.get(minute);
      if (bucket === undefined) continue;
      n += bucket.n;
      rt += bucket.rt;
    }
    values.push(n === 0 ? null : Math.round(rt / n));
  }
  return values;
};

/**
 * The rtm=N sparkline: the last `n` values with empty minutes filled. The fill depends on N
 * (leading empty minutes take the first value inside the N-window), so the stored rtm keeps the
 * nulls and the API calls this on each request.
 */
export const rtmWindow = (values: readonly (number | null)[], n: number): NonNullable<EmbedStatus['rtm']> => {
  const window = values.slice(Math.max(0, values.length - n));
  let previous = window.find((v) => v !== null) ?? 0;
  return window.map((v) => (previous = v ?? previous));
};

/** The page's daily uptime for the 30 days ending today, oldest first; 100 for a day without data. */
export const updDays = (
  monitors: readonly MonitorSnapshot[],
  nowMs: number,
): NonNullable<EmbedStatus['upd']> => {
  const values: number[] = [];
  const today = floorTo(nowMs, DAY_MS);
  for (let i = UPD_DAYS - 1; i >= 0; i--)
    values.push(pageDayUptime(monitors, today - i * DAY_MS, nowMs) ?? 100);
  return values;
};

/** The members of an object's JSON without its braces, to be joined into a larger object. */
const members = (fields: object): string => JSON.stringify(fields).slice(1, -1);

export const renderEmbedParts = (args: EmbedInput): EmbedParts => {
  const { slug, pageUrl, overall, monitors, incidents } = args;
  // `updated` follows every check: the API adds it when read, from the page's latest event.
  const head: Pick<EmbedStatus, 'page' | 'page_url' | 'overall'> = { page: slug, page_url: pageUrl, overall };
  const tail: Pick<EmbedStatus, 'dns_only'> = {
    dns_only: monitors.length > 0 && monitors.every((m) => m.type === 'dns'),
  };
  return {
    head: members(head),
    incidents: JSON.stringify(embedIncidents(incidents)),
    tail: members(tail),
  };
};
