// Projects one monitor's checks of a batch: order-independent buckets (counts and response-time
// sums per minute and hour) and the order-dependent timeline. In-order checks replay from the
// latest check with no extra reads; a late check (up to 24 h, see RECENT_MS) reloads the span
// after it and replays that span exactly as if the check had come in order.
import type { Redis } from 'ioredis';
import { compareChecks, replayTimeline, type Anchor, type TimedCheck } from '../../projections/timeline.ts';
import type { Interval } from '../../projections/types.ts';
import { monitorKeys } from '../readModels/keys.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../shared/time.ts';
import type { CommandList } from './commands.ts';
import {
  decodeInterval,
  decodeRecent,
  encodeInterval,
  encodeRecent,
  type TimelineHead,
} from './timelineStore.ts';

/** How far back checks are kept for late arrivals: the 24 h of decisions.md plus a margin. */
export const RECENT_MS = 25 * HOUR_MS;
/** Buckets older than this are never served (minute data: 240 min; hours: today and yesterday). */
const BUCKET_HORIZON_MS = 2 * DAY_MS;
const BUCKET_TTL_S = 4 * 86_400;

export type Check = TimedCheck & Readonly<{ responseTimeMs: number }>;

export type MonitorChecks = Readonly<{ monitorId: number; head: TimelineHead | null; checks: Check[] }>;

/** What a late check needs loaded: the anchor before it, the checks after it, the failures to redo. */
type LateSpan = Readonly<{ before: TimedCheck | null; after: TimedCheck[]; failures: Interval[] }>;

export const isLate = (m: MonitorChecks): boolean =>
  m.head !== null && m.checks.some((c) => compareChecks(c, m.head!.last) < 0);

const earliest = (checks: readonly Check[]): Check =>
  checks.reduce((a, b) => (compareChecks(a, b) <= 0 ? a : b));

/** Loads the spans of every late monitor in one round trip. */
export const loadLateSpans = async (
  redis: Redis,
  tag: string,
  late: readonly MonitorChecks[],
): Promise<Map<number, LateSpan>> => {
  const pipeline = redis.pipeline();
  for (const m of late) {
    const keys = monitorKeys(tag, m.monitorId);
    const from = earliest(m.checks).at;
    pipeline.zrevrangebyscore(keys.recent, from, '-inf', 'LIMIT', 0, 2);
    pipeline.zrangebyscore(keys.recent, from, '+inf');
    pipeline.zrangebyscore(keys.down, from - 400 * DAY_MS, '+inf');
  }
  const results = (await pipeline.exec()) ?? [];
  const spans = new Map<number, LateSpan>();
  late.forEach((m, i) => {
    const [beforeRaw, afterRaw, failuresRaw] = [0, 1, 2].map(
      (k) => (results[i * 3 + k]?.[1] ?? []) as string[],
    );
    const first = earliest(m.checks);
    // Checks at the same instant as the earliest late one may sit on either side of it.
    const candidates = [...beforeRaw!, ...afterRaw!].map(decodeRecent).sort(compareChecks);
    const before = candidates.filter((c) => compareChecks(c, first) < 0).at(-1) ?? null;
    const after = candidates.filter((c) => compareChecks(c, first) > 0);
    spans.set(m.monitorId, { before, after, failures: failuresRaw!.map(decodeInterval) });
  });
  return spans;
};

type Outcome = Readonly<{ head: TimelineHead; timelineChanged: boolean }>;

const pushBuckets = (
  out: CommandList,
  tag: string,
  monitorId: number,
  checks: readonly Check[],
  now: number,
) => {
  const keys = monitorKeys(tag, monitorId);
  const deltas = new Map<string, Map<string, number>>();
  const add = (key: string, field: string, by: number) => {
    const fields = deltas.get(key) ?? new Map<string, number>();
    deltas.set(key, fields);
    fields.set(field, (fields.get(field) ?? 0) + by);
  };
  for (const c of checks) {
    if (c.at < now - BUCKET_HORIZON_MS) continue;
    const day = Math.floor(c.at / DAY_MS);
    const minute = Math.floor((c.at - day * DAY_MS) / MINUTE_MS);
    const hour = Math.floor((c.at - day * DAY_MS) / HOUR_MS);
    add(keys.minutes(day), `${minute}:n`, 1);
    add(keys.minutes(day), `${minute}:rt`, c.responseTimeMs);
    if (c.status === 'down') add(keys.minutes(day), `${minute}:d`, 1);
    if (c.status === 'degraded') add(keys.minutes(day), `${minute}:g`, 1);
    add(keys.hours(day), `${hour}:n`, 1);
    add(keys.hours(day), `${hour}:rt`, c.responseTimeMs);
  }
  for (const [key, fields] of deltas) {
    for (const [field, by] of fields) out.push('HINCRBY', key, field, by);
    out.push('EXPIRE', key, BUCKET_TTL_S);
  }
};

/**
 * Appends the commands that project `m.checks`. `span` is given when some check is late.
 * Returns the new timeline head, or null when every check was too late for the timeline.
 */
export const applyChecks = (
  out: CommandList,
  tag: string,
  m: MonitorChecks,
  span: LateSpan | undefined,
  now: number,
): Outcome => {
  const keys = monitorKeys(tag, m.monitorId);
  pushBuckets(out, tag, m.monitorId, m.checks, now);
  const sorted = [...m.checks].sort(compareChecks);
  const head = m.head;
  let anchor: Anchor | null = null;
  let replayed: TimedCheck[] = sorted;
  let redoFrom: number | null = null;

  if (head !== null && span === undefined) {
    anchor = { ...head.last, downStart: head.openDownStart };
  } else if (head !== null && span !== undefined) {
    const oldest = sorted[0]!;
    if (span.before === null && head.first < oldest.at) {
      // Older than the recent checks kept: buckets only (decisions.md guarantees 24 h).
      return { head, timelineChanged: false };
    }
    const before = span.before;
    const failure = before?.status === 'down' ? findFailure(span.failures, head, before.at) : null;
    anchor = before ? { ...before, downStart: failure } : null;
    redoFrom = before === null ? Number.NEGATIVE_INFINITY : (failure ?? before.at + 1);
    replayed = [...span.after, ...sorted].sort(compareChecks);
  }

  const result = replayTimeline(anchor, replayed);
  if (redoFrom !== null)
    out.push('ZREMRANGEBYSCORE', keys.down, redoFrom === -Infinity ? '-inf' : redoFrom, '+inf');
  for (const failure of result.closed) out.push('ZADD', keys.down, failure.start, encodeInterval(failure));

  const first = Math.min(head?.first ?? Number.POSITIVE_INFINITY, sorted[0]!.at);
  const last = head !== null && compareChecks(head.last, result.last) > 0 ? head.last : result.last;
  // Only checks a later late arrival could need; TRIMBEFORE keeps one older anchor.
  const keepFrom = last.at - RECENT_MS;
  const kept = sorted.filter(
    (c, i) => c.at >= keepFrom || sorted[i + 1] === undefined || sorted[i + 1]!.at >= keepFrom,
  );
  for (const c of kept) out.push('ZADD', keys.recent, c.at, encodeRecent(c));
  out.push('TRIMBEFORE', keys.recent, keepFrom);
  out.push(
    'HSET',
    keys.timeline,
    'first',
    first,
    'last_at',
    last.at,
    'last_pos',
    String(last.position),
    'last_status',
    last.status,
  );
  if (result.openDownStart === null) out.push('HDEL', keys.timeline, 'open_down');
  else out.push('HSET', keys.timeline, 'open_down', result.openDownStart);

  const next: TimelineHead = { first, last, openDownStart: result.openDownStart };
  const timelineChanged =
    redoFrom !== null || result.closed.length > 0 || next.openDownStart !== (head?.openDownStart ?? null);
  return { head: next, timelineChanged };
};

/** The start of the failure that contains the down check at `at`. */
const findFailure = (failures: readonly Interval[], head: TimelineHead, at: number): number => {
  if (head.openDownStart !== null && head.openDownStart <= at) return head.openDownStart;
  const containing = failures.filter((f) => f.start <= at && f.end > at).at(-1);
  return containing?.start ?? at;
};
