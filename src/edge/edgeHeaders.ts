// What an edge (Varnish, Fastly, Cloudflare) is told about a public answer: its surrogate keys and
// how long it may keep it. Event-driven changes are purged by key (edgePurger.ts), so the edge
// lifetime only has to end when the answer next changes by the clock alone.
export type EdgeLifetime =
  /** Changes with the projector's minute tick (charts, rtm, maintenance status, availability). */
  | 'minute'
  /** Changes only with events (incident lists, counts, the HTML page, assets): at most a day. */
  | 'day';

export type EdgeAnswer = Readonly<{ keys: readonly string[]; lifetime: EdgeLifetime }>;

const DAY_SECONDS = 86_400;
const MINUTE_MS = 60_000;
// The clock renders a page within a few seconds of the minute (the scheduler wakes every 5 s):
// a lifetime that ended on the minute itself would refetch the previous minute's answer.
export const TICK_SLACK_SECONDS = 6;
// An answer the process may have read before a change it has heard of (a stale or unkept cache
// value): stale at once, so the edge serves it while it refetches (stale-while-revalidate) at the
// next request, rather than a second later (a purge's refetch that landed there took 1.2 s to show).
const UNSETTLED_SECONDS = 0;
const EDGE_DIRECTIVES = 'stale-while-revalidate=30, stale-if-error=86400';

/** Seconds until `lifetime` ends at `nowMs`. */
export const edgeSeconds = (lifetime: EdgeLifetime, nowMs: number): number => {
  if (lifetime === 'day') return DAY_SECONDS;
  const nextMinute = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  return Math.ceil((nextMinute - nowMs) / 1000) + TICK_SLACK_SECONDS;
};

/** The headers of a cacheable public answer; `settled` false for a body that may predate a change. */
export const edgeHeaders = (answer: EdgeAnswer, nowMs: number, settled: boolean): Record<string, string> => {
  const seconds = settled ? edgeSeconds(answer.lifetime, nowMs) : UNSETTLED_SECONDS;
  const control = `max-age=${seconds}, ${EDGE_DIRECTIVES}`;
  return {
    'Surrogate-Key': answer.keys.join(' '),
    'Cache-Tag': answer.keys.join(','),
    'Surrogate-Control': control,
    'CDN-Cache-Control': control,
  };
};
