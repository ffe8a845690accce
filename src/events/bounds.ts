// What the log admits, in one place: the write side validates incoming events with these bounds
// and the projector parses the log with the same ones, so an event that ingest accepts is always
// one the projector can project and a rebuild can replay (docs/ingest.md, "Bounds").
import { z } from 'zod';

const DAY_MS = 86_400_000;

/** No timestamp before this instant: older dates have no place on a status page. */
export const EARLIEST_MS = Date.UTC(2000, 0, 1);
/** No timestamp at or after this instant, whatever the clock says (the projector's own ceiling). */
export const LATEST_MS = Date.UTC(2100, 0, 1);
/** How far ahead of the clock an event's `at` may be (agents' clocks drift). */
export const MAX_AT_AHEAD_MS = 5 * 60_000;
/** How far ahead of the clock a maintenance window may be scheduled: ten years. */
export const MAX_SCHEDULE_AHEAD_MS = 3653 * DAY_MS;
/** UTC offsets in use on Earth span −12:00 to +14:00; anything beyond ±14:00 is a typo. */
const MAX_OFFSET_MINUTES = 14 * 60;

export const MAX_MONITOR_ID = Number.MAX_SAFE_INTEGER;
export const MAX_RESPONSE_TIME_MS = 86_400_000;
export const MAX_POSITION = 1_000_000;

const OFFSET = /([+-])(\d{2}):?(\d{2})$/;

/** Why an ISO 8601 timestamp (already of the right form) is out of bounds, or null. */
const timestampProblem = (text: string): string | null => {
  const offset = OFFSET.exec(text);
  if (offset !== null) {
    const hours = Number(offset[2]);
    const minutes = Number(offset[3]);
    if (minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES)
      return 'offset must be within -14:00 and +14:00';
  }
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return 'not a real instant';
  if (ms < EARLIEST_MS) return 'must not be before 2000-01-01T00:00:00Z';
  if (ms >= LATEST_MS) return 'must be before 2100-01-01T00:00:00Z';
  return null;
};

/** An ISO 8601 timestamp with Z or an offset, naming a real instant inside the bounds above. */
export const BoundedTimestamp = z
  .string()
  .datetime({ offset: true })
  .superRefine((text, ctx) => {
    const problem = timestampProblem(text);
    if (problem !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

/** The clock-relative limits of ingest: true when `ms` is more than `aheadMs` after `now`. */
export const tooFarAhead = (ms: number, now: Date, aheadMs: number): boolean => ms > now.getTime() + aheadMs;

/** How deep an event may nest (the event object is level 1); no event type needs more than a few. */
export const MAX_NESTING = 32;

/**
 * Whether `value` nests deeper than `max` levels of objects and arrays. Iterative, and stops at the
 * first level past `max`, so a hostile body costs time linear in its size and never the stack:
 * checked before anything else walks an event.
 */
export const nestsDeeperThan = (value: unknown, max: number): boolean => {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
};

// PostgreSQL stores neither NUL in text nor unpaired UTF-16 surrogates in jsonb: such a string
// would fail the append with a database error instead of a 400.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string): boolean => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The path of the first string in `value` that PostgreSQL cannot store, or null. */
export const unstorableStringPath = (
  value: unknown,
  path: readonly (string | number)[] = [],
): string | null => {
  if (typeof value === 'string') return unstorable(value) ? path.join('.') || 'event' : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (unstorable(key)) return [...path, '(key)'].join('.');
    const found = unstorableStringPath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
};
