// The demo page `demo` as raw ingest events: six monitors with 90 days of history, deterministic
// for a given `nowMs`.
import { DAY_MS, HOUR_MS, MINUTE_MS, formatTimestamp } from '../shared/time.ts';
import { INCIDENTS, MAINTENANCES, RUNS } from './demoStory.ts';

export const DEMO_SLUG = 'demo';
const DEMO_DAYS = 90;
/** The last two days carry a check per minute; older days one per COARSE_INTERVAL_MS (load time). */
const FINE_DAYS = 2;
const FINE_INTERVAL_MS = MINUTE_MS;
const COARSE_INTERVAL_MS = 5 * MINUTE_MS;

export type DemoMonitor = Readonly<{
  id: number;
  name: string;
  type: string;
  impact: 'major' | 'partial' | 'degraded' | 'none';
  baseMs: number; // median response time at quiet hours
  sigma: number; // spread of log(response time)
  timeoutMs: number; // what a down check reports
  offsetMs: number; // agents don't all check on the minute
}>;

const MONITORS: readonly Omit<DemoMonitor, 'offsetMs'>[] = [
  { id: 1, name: 'Website', type: 'http', impact: 'partial', baseMs: 180, sigma: 0.22, timeoutMs: 30_000 },
  { id: 2, name: 'API', type: 'http', impact: 'major', baseMs: 95, sigma: 0.3, timeoutMs: 30_000 },
  { id: 3, name: 'Dashboard', type: 'http', impact: 'partial', baseMs: 240, sigma: 0.25, timeoutMs: 30_000 },
  { id: 4, name: 'Database', type: 'tcp', impact: 'major', baseMs: 12, sigma: 0.35, timeoutMs: 10_000 },
  { id: 5, name: 'CDN', type: 'http', impact: 'degraded', baseMs: 35, sigma: 0.3, timeoutMs: 30_000 },
  { id: 6, name: 'DNS', type: 'dns', impact: 'none', baseMs: 18, sigma: 0.2, timeoutMs: 5_000 },
];

export const DEMO_MONITORS: readonly DemoMonitor[] = MONITORS.map((m) => ({
  ...m,
  offsetMs: (m.id - 1) * 7_000,
}));

// ---- deterministic noise: a hash of (monitor, instant, stream), not a stateful PRNG, so any
// check can be computed on its own (by the loader, the agent, or a test).
const SEED = 0x5eedd3a0 >>> 0;
const mix = (a: number, b: number): number => {
  let h = Math.imul(a ^ b, 0x9e3779b1) ^ 0x85ebca6b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};
/** Uniform in [0, 1) from the seed, a monitor, an instant and a stream number. */
export const demoUniform = (monitorId: number, atMs: number, stream: number): number => {
  const seconds = Math.floor(atMs / 1000);
  const h = mix(mix(mix(SEED, monitorId), seconds | 0), Math.floor(seconds / 2 ** 32) * 31 + stream);
  return h / 2 ** 32;
};
const gaussian = (monitorId: number, atMs: number): number => {
  const u = Math.max(demoUniform(monitorId, atMs, 1), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * demoUniform(monitorId, atMs, 2));
};

/** Busier (slower) in the European and American afternoon, quietest at night UTC. */
const seasonality = (atMs: number): number => {
  const hour = (atMs % DAY_MS) / HOUR_MS;
  const weekday = Math.floor(atMs / DAY_MS + 4) % 7; // 0 = Sunday
  const weekend = weekday === 0 || weekday === 6 ? 0.85 : 1;
  return (
    (1 +
      0.3 * Math.max(0, Math.sin((2 * Math.PI * (hour - 8)) / 24)) +
      0.08 * Math.sin((2 * Math.PI * hour) / 12)) *
    weekend
  );
};

export type CheckData = { monitor_id: number; status: 'up' | 'down' | 'degraded'; response_time_ms: number };

/** A realistic check of `monitor` at `atMs`: lognormal around its base, rare spikes. */
export const demoCheckData = (
  monitor: DemoMonitor,
  atMs: number,
  status: CheckData['status'] = 'up',
): CheckData => {
  if (status === 'down') {
    // Timeouts mostly; sometimes a fast "connection refused".
    const refused = demoUniform(monitor.id, atMs, 3) < 0.3;
    return {
      monitor_id: monitor.id,
      status,
      response_time_ms: refused ? Math.round(2 + 10 * demoUniform(monitor.id, atMs, 4)) : monitor.timeoutMs,
    };
  }
  const spike = demoUniform(monitor.id, atMs, 5) < 0.004 ? 3 + 5 * demoUniform(monitor.id, atMs, 6) : 1;
  const slow = status === 'degraded' ? 4 + 3 * demoUniform(monitor.id, atMs, 7) : 1;
  const ms =
    monitor.baseMs * seasonality(atMs) * Math.exp(monitor.sigma * gaussian(monitor.id, atMs)) * spike * slow;
  return { monitor_id: monitor.id, status, response_time_ms: Math.max(1, Math.round(ms)) };
};

// ---- the events, relative to `end` (the last whole minute at load time).
type Other = { id: string; type: string; at: number; data: Record<string, unknown> };

/** The last whole minute at or before `nowMs`: every demo time is relative to it. */
export const demoAnchor = (nowMs: number): number => Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;

/** The check instants of one monitor (ascending): every 5 min, then every minute for the last 2 days. */
const demoCheckTimes = (monitor: DemoMonitor, nowMs: number): number[] => {
  const end = demoAnchor(nowMs);
  const fineFrom = end - FINE_DAYS * DAY_MS;
  const times: number[] = [];
  for (let slot = end - DEMO_DAYS * DAY_MS; slot < fineFrom; slot += COARSE_INTERVAL_MS)
    times.push(slot + monitor.offsetMs);
  for (let slot = fineFrom; slot <= end; slot += FINE_INTERVAL_MS)
    if (slot + monitor.offsetMs <= nowMs) times.push(slot + monitor.offsetMs);
  return times;
};

const statusAt = (monitorId: number, at: number, end: number): CheckData['status'] => {
  for (const run of RUNS)
    if (run.monitorId === monitorId && at >= end + run.from && at < end + run.to) return run.status;
  return 'up';
};

const otherEvents = (end: number): Other[] => {
  const idOf = (suffix: string) => `demo.${(end / MINUTE_MS).toString(36)}.${suffix}`;
  const events: Other[] = [];
  for (const inc of INCIDENTS) {
    inc.updates.forEach(([offset, state, message], i) =>
      events.push({
        id: idOf(`inc.${inc.id}.${i}`),
        at: end + offset,
        ...(i === 0
          ? {
              type: 'incident.opened',
              data: { incident_id: inc.id, title: inc.title, message, state, components: inc.components },
            }
          : { type: 'incident.updated', data: { incident_id: inc.id, state, message } }),
      }),
    );
  }
  for (const mnt of MAINTENANCES) {
    const { id, title, description, components } = mnt;
    const window = {
      scheduled_start: formatTimestamp(end + mnt.start),
      scheduled_end: formatTimestamp(end + mnt.end),
    };
    events.push({
      id: idOf(`mnt.${id}.0`),
      type: 'maintenance.scheduled',
      at: end + mnt.created,
      data: { maintenance_id: id, title, description, components, ...window },
    });
    mnt.transitions.forEach(([offset, type], i) =>
      events.push({ id: idOf(`mnt.${id}.${i + 1}`), type, at: end + offset, data: { maintenance_id: id } }),
    );
  }
  return events.sort((a, b) => a.at - b.at);
};

const setupEvents = (end: number): Other[] => {
  const at = end - DEMO_DAYS * DAY_MS - 10 * MINUTE_MS;
  const idOf = (suffix: string) => `demo.${(end / MINUTE_MS).toString(36)}.${suffix}`;
  return [
    {
      id: idOf('page'),
      type: 'page.configured',
      at,
      data: { title: 'Demo Status', plan: 'growth', custom_domain: null, auth_token: null },
    },
    ...DEMO_MONITORS.map((m, i) => ({
      id: idOf(`mon.${m.id}`),
      type: 'monitor.configured',
      at,
      data: { monitor_id: m.id, name: m.name, type: m.type, impact: m.impact, position: i + 1 },
    })),
  ];
};

const envelope = (e: Other) => ({
  id: e.id,
  type: e.type,
  page: DEMO_SLUG,
  at: formatTimestamp(e.at),
  data: e.data,
});

/** Every event of the demo page, in `at` order. */
export function* demoEvents(nowMs: number): Generator<object> {
  const end = demoAnchor(nowMs);
  const checkPrefix = `demo.${(end / MINUTE_MS).toString(36)}.c`;
  for (const e of setupEvents(end)) yield envelope(e);
  const others = otherEvents(end);
  let next = 0;
  /** The other events up to `at` not yielded yet, in order. */
  function* othersUntil(at: number) {
    for (let event = others[next]; event !== undefined && event.at <= at; event = others[next]) {
      next += 1;
      yield envelope(event);
    }
  }
  const fineFrom = end - FINE_DAYS * DAY_MS;
  for (
    let slot = end - DEMO_DAYS * DAY_MS;
    slot <= end;
    slot += slot < fineFrom ? COARSE_INTERVAL_MS : FINE_INTERVAL_MS
  ) {
    for (const monitor of DEMO_MONITORS) {
      const at = slot + monitor.offsetMs;
      if (at > nowMs) continue;
      yield* othersUntil(at);
      yield {
        id: `${checkPrefix}${monitor.id}.${(at / 1000).toString(36)}`,
        type: 'check.recorded',
        page: DEMO_SLUG,
        at: formatTimestamp(at),
        data: demoCheckData(monitor, at, statusAt(monitor.id, at, end)),
      };
    }
  }
  yield* othersUntil(Infinity);
}

/** How many events demoEvents(nowMs) yields (for progress), without building them. */
export const demoEventCount = (nowMs: number): number =>
  setupEvents(0).length +
  otherEvents(demoAnchor(nowMs)).length +
  DEMO_MONITORS.reduce((sum, m) => sum + demoCheckTimes(m, nowMs).length, 0);
