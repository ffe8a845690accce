// Steady traffic during the chaos: agents sending events (each with an id, resent until accepted,
// exactly as ingest.md asks of agents) and readers polling every public endpoint. Every answer is
// counted by status and timed.
import { setTimeout as sleep } from 'node:timers/promises';

export const PAGES = ['chaos-a', 'chaos-b', 'chaos-c', 'chaos-d'];
export const MONITORS_PER_PAGE = 3;
const monitorIds = (p: number) => Array.from({ length: MONITORS_PER_PAGE }, (_, m) => p * 10 + m + 1);

export type TrafficStats = {
  requests: number;
  byStatus: Map<number, number>;
  /** Connection refused or reset: the process was killed (not an answer). */
  unanswered: number;
  slowest: number;
  /** Requests answered after more than 2 s, with what and when. */
  slow: string[];
  eventsSent: number;
  /** Batches the service refused (4xx): a bug in this run's events, reported, not resent. */
  rejected: string[];
};

export const emptyStats = (): TrafficStats => ({
  requests: 0,
  byStatus: new Map(),
  unanswered: 0,
  slowest: 0,
  slow: [],
  eventsSent: 0,
  rejected: [],
});

const timed = async (stats: TrafficStats, what: string, request: () => Promise<Response>) => {
  const started = performance.now();
  stats.requests += 1;
  try {
    const response = await request();
    const body = await response.arrayBuffer();
    const ms = performance.now() - started;
    stats.slowest = Math.max(stats.slowest, ms);
    if (ms > 2000) stats.slow.push(`${what} ${response.status} after ${Math.round(ms)} ms`);
    stats.byStatus.set(response.status, (stats.byStatus.get(response.status) ?? 0) + 1);
    return { status: response.status, text: () => Promise.resolve(Buffer.from(body).toString()) };
  } catch {
    stats.unanswered += 1;
    return null;
  }
};

export const monitorName = (monitorId: number) => `Monitor ${monitorId}`;

/** Incident k (on page p) names no component, p's first monitor or its second, in turn. */
const incidentComponents = (p: number, k: number): string[] => {
  const nth = k % 3;
  return nth === 0 ? [] : [monitorName(monitorIds(p)[nth - 1]!)];
};

/** The configuration every page starts with (ids make resending harmless). */
const setupEvents = (at: string) =>
  PAGES.flatMap((page, p) => [
    {
      id: `setup-${page}`,
      type: 'page.configured',
      page,
      at,
      data: { title: `Chaos ${page}`, plan: 'growth' },
    },
    ...monitorIds(p).map((monitorId) => ({
      id: `setup-${page}-${monitorId}`,
      type: 'monitor.configured',
      page,
      at,
      data: { monitor_id: monitorId, name: monitorName(monitorId) },
    })),
  ]);

/** The n-th batch: one check per monitor, and now and then an incident opened or updated. */
const batchOf = (n: number, at: string) => {
  const statuses = ['up', 'up', 'up', 'degraded', 'down'];
  const events: object[] = PAGES.flatMap((page, p) =>
    monitorIds(p).map((monitorId) => ({
      id: `check-${n}-${monitorId}`,
      type: 'check.recorded',
      page,
      at,
      data: {
        monitor_id: monitorId,
        status: statuses[(n + monitorId) % 5],
        response_time_ms: 20 + ((n * 7 + monitorId) % 200),
      },
    })),
  );
  // Incident k opens at batch 20k + 10, is updated 5 batches later and resolved 10 batches later,
  // on page k mod 4, naming no component, its page's first or its second monitor as k mod 3 says
  // (subscribers scoped to components hear of some of them only).
  if (n % 5 === 0 && n >= 10) {
    const k = Math.floor((n - 10) / 20);
    const p = k % PAGES.length;
    const page = PAGES[p]!;
    const incident_id = `inc-${k}`;
    const step = (n - 10) % 20;
    if (step === 0)
      events.push({
        id: `inc-${n}`,
        type: 'incident.opened',
        page,
        at,
        data: { incident_id, title: 'Slow', message: 'Looking', components: incidentComponents(p, k) },
      });
    else if (step === 5 || step === 10)
      events.push({
        id: `inc-${n}`,
        type: 'incident.updated',
        page,
        at,
        data:
          step === 5
            ? { incident_id, state: 'identified', message: 'Found the cause' }
            : { incident_id, state: 'resolved', message: 'Fixed' },
      });
  }
  return events;
};

export type Agent = Readonly<{ stop: () => Promise<void>; stats: TrafficStats }>;

/**
 * Sends the pages' configuration, awaits `afterSetup` (subscribers are made then: they hear only
 * of what is appended after), then a batch every `everyMs` until stopped; each batch is resent
 * until it is accepted.
 */
export const startAgent = (
  ingestUrl: string,
  token: string,
  everyMs: number,
  afterSetup: () => Promise<void> = () => Promise.resolve(),
): Agent & { ready: Promise<void> } => {
  const stats = emptyStats();
  let running = true;
  let setUp: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (setUp = resolve));
  const send = async (events: object[]) => {
    stats.eventsSent += events.length;
    for (;;) {
      const response = await timed(stats, 'POST /v1/events', () =>
        fetch(`${ingestUrl}/v1/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(events),
          signal: AbortSignal.timeout(10_000),
        }),
      );
      if (response?.status === 202) return;
      if (response && response.status >= 400 && response.status < 500) {
        stats.rejected.push(`${response.status} ${await response.text()}`);
        stats.eventsSent -= events.length;
        return;
      }
      await sleep(250); // a 503, or the listener is down: resend the same events
    }
  };
  const loop = (async () => {
    await send(setupEvents(new Date(Date.now() - 60_000).toISOString()));
    await afterSetup();
    setUp();
    for (let n = 1; running; n += 1) {
      const started = Date.now();
      await send(batchOf(n, new Date().toISOString()));
      await sleep(Math.max(0, everyMs - (Date.now() - started)));
    }
  })();
  return {
    stats,
    // Rejects when the setup failed (the loop ended with it).
    ready: Promise.race([ready, loop]),
    stop: async () => {
      running = false;
      await loop;
    },
  };
};

/** Polls every public endpoint of every page, one request at a time. */
export const startReaders = (apiUrl: string, paths: readonly string[]): Agent => {
  const stats = emptyStats();
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i += 1) {
      const path = paths[i % paths.length]!;
      const response = await timed(stats, `GET ${path}`, () =>
        fetch(`${apiUrl}${path}`, { signal: AbortSignal.timeout(10_000) }),
      );
      if (response === null) await sleep(100);
    }
  })();
  return {
    stats,
    stop: async () => {
      running = false;
      await loop;
    },
  };
};

export const monitorsOf = (p: number) => monitorIds(p);
