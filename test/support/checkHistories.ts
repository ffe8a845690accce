// Random check histories for the figures property test, and the order they reach the log in:
// gaps from none (two checks at one instant) to months, flapping statuses, runs of downs across
// minute, hour and day boundaries, delivered in several appends with late checks and re-sent ids.
import fc from 'fast-check';
import type { Status } from './figuresOracle.ts';

const SECOND = 1000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** decisions.md: a check up to 24 h older than its monitor's newest check is projected exactly. */
const LATE_WINDOW_MS = 23 * HOUR;

export type PlannedCheck = Readonly<{ monitor: number; at: number; status: Status; rt: number }>;

const gap = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 120 }).map((s) => s * SECOND) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 90 }).map((m) => m * MINUTE) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 30 * HOUR }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((d) => d * DAY) },
);
const step = fc.record({
  gap,
  status: fc.constantFrom<Status>('up', 'down', 'degraded'),
  rt: fc.integer({ min: 0, max: 5000 }),
  repeat: fc.integer({ min: 1, max: 4 }),
});
const alignments = { none: 1, minute: MINUTE, hour: HOUR, day: DAY } as const;

type MonitorHistory = Readonly<{
  back: number;
  align: keyof typeof alignments;
  steps: readonly Readonly<{ gap: number; status: Status; rt: number; repeat: number }>[];
}>;

/** One monitor's history: where it starts (how far back, aligned or not) and its steps. */
export const monitorHistory: fc.Arbitrary<MonitorHistory> = fc.record({
  back: fc.oneof(
    fc.integer({ min: 0, max: 4 * HOUR }),
    fc.integer({ min: 0, max: 3 * DAY }),
    fc.integer({ min: 0, max: 400 * DAY }),
  ),
  align: fc.constantFrom(...(Object.keys(alignments) as (keyof typeof alignments)[])),
  steps: fc.array(step, { minLength: 1, maxLength: 20 }),
});

/** The checks of a history, none after `now`. */
export const checksOf = (monitor: number, history: MonitorHistory, now: number): PlannedCheck[] => {
  const checks: PlannedCheck[] = [];
  const unit = alignments[history.align];
  let at = Math.floor((now - history.back) / unit) * unit;
  for (const { gap: by, status, rt, repeat } of history.steps)
    for (let i = 0; i < repeat; i++) {
      if (at > now) return checks;
      checks.push({ monitor, at, status, rt });
      at += by;
    }
  return checks;
};

/** How the checks reach the log: a sort key per check, cuts into appends, ids sent twice. */
type Arrival = Readonly<{
  keys: readonly number[];
  cuts: readonly number[];
  resent: readonly number[];
  oldLast: number;
}>;

export const arrival = (count: number): fc.Arbitrary<Arrival> =>
  fc.record({
    keys: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: count, maxLength: count }),
    cuts: fc.array(fc.integer({ min: 0, max: count }), { maxLength: 3 }),
    resent: fc.array(fc.integer({ min: 0, max: Math.max(0, count - 1) }), { maxLength: count === 0 ? 0 : 3 }),
    oldLast: fc.integer({ min: 0, max: count }),
  });

/**
 * The appends, in order, as indexes into `checks`. Without `anyAge`, each check arrives at most
 * 23 h after a newer check of its monitor did (the late window decisions.md guarantees). With
 * it, the order is any permutation, and the `oldLast` oldest checks come last (a backfill).
 */
export const appendsOf = (checks: readonly PlannedCheck[], plan: Arrival, anyAge: boolean): number[][] => {
  const key = (i: number) =>
    anyAge ? (plan.keys[i] ?? 0) : checks[i]!.at + (plan.keys[i] ?? 0) * LATE_WINDOW_MS;
  let order = checks.map((_, i) => i).sort((a, b) => key(a) - key(b));
  if (anyAge) {
    const oldest = new Set(
      checks
        .map((_, i) => i)
        .sort((a, b) => checks[a]!.at - checks[b]!.at)
        .slice(0, plan.oldLast),
    );
    order = [...order.filter((i) => !oldest.has(i)), ...order.filter((i) => oldest.has(i))];
  }
  const cuts = [...new Set(plan.cuts)].sort((a, b) => a - b);
  const appends = [0, ...cuts].map((from, k) => order.slice(from, cuts[k] ?? order.length));
  return appends.filter((a) => a.length > 0);
};
