// The figures of one monitor over one span of a period, exact in ms, so months combine into
// quarters and years (sla-reports.md, "Figures").
import { clip, length, subtract, union, type Span } from './intervals.ts';
import { dayStart, localDayOf } from './zone.ts';
import { must } from '../../src/shared/must.ts';

/** A local day inside W: its day number, then total, excluded and down ms inside W. */
export type DayFigures = readonly [day: number, total: number, excluded: number, down: number];

export type Summary = Readonly<{
  total: number;
  excluded: number;
  down: number;
  /** Failures with down time inside counted time. */
  count: number;
  /** The first and last of them (by start) and their down ms inside counted time here. */
  first: readonly [id: number, down: number] | null;
  last: readonly [id: number, down: number] | null;
  longest: number;
  days: readonly DayFigures[];
}>;

type SummaryInput = Readonly<{
  zone: string;
  /** W = [from, to). */
  from: number;
  to: number;
  /** Excluded spans (any order, may overlap). */
  excluded: readonly Span[];
  /** Failures overlapping W, unclipped (their start is their identity), any order. */
  failures: readonly Span[];
}>;

/** Local days overlapping [from, to) as [day, start, end) clipped to it. */
const daysOf = (zone: string, from: number, to: number): (readonly [number, number, number])[] => {
  const out: (readonly [number, number, number])[] = [];
  for (let day = localDayOf(zone, from); dayStart(zone, day) < to; day += 1)
    out.push([day, Math.max(from, dayStart(zone, day)), Math.min(to, dayStart(zone, day + 1))]);
  return out;
};

/** Adds each span's ms to the days it falls in (days and spans sorted). */
const spread = (
  spans: readonly Span[],
  days: readonly (readonly [number, number, number])[],
  into: number[],
) => {
  let d = 0;
  for (const span of spans) {
    let at = span.start;
    while (at < span.end) {
      while ((days[d]?.[2] ?? Infinity) <= at) d += 1;
      const until = Math.min(span.end, must(days[d], 'the local day of a span')[2]);
      into[d] = (into[d] ?? 0) + until - at;
      at = until;
    }
  }
};

export const summarize = ({ zone, from, to, excluded, failures }: SummaryInput): Summary => {
  const holes = union(clip(excluded, from, to));
  const days = daysOf(zone, from, to);
  const dayExcluded = days.map(() => 0);
  const dayDown = days.map(() => 0);
  spread(holes, days, dayExcluded);
  let count = 0;
  let down = 0;
  let longest = 0;
  let first: [number, number] | null = null;
  let last: [number, number] | null = null;
  for (const failure of [...failures].sort((a, b) => a.start - b.start)) {
    const inside = clip([failure], from, to)[0];
    if (inside === undefined) continue;
    const pieces = subtract(inside, holes);
    const ms = length(pieces);
    if (ms === 0) continue;
    spread(pieces, days, dayDown);
    count += 1;
    down += ms;
    longest = Math.max(longest, ms);
    first ??= [failure.start, ms];
    last = [failure.start, ms];
  }
  return {
    total: to - from,
    excluded: length(holes),
    down,
    count,
    first,
    last,
    longest,
    days: days.map(
      ([day, start, end], i) => [day, end - start, dayExcluded[i] ?? 0, dayDown[i] ?? 0] as const,
    ),
  };
};

const emptySummary: Summary = {
  total: 0,
  excluded: 0,
  down: 0,
  count: 0,
  first: null,
  last: null,
  longest: 0,
  days: [],
};

/** Two consecutive summaries as one: a failure running across their boundary counts once. */
export const combine = (a: Summary, b: Summary): Summary => {
  const joined = a.last !== null && b.first !== null && a.last[0] === b.first[0];
  const merged = joined ? a.last[1] + b.first[1] : 0;
  const single = (s: Summary) => s.count === 1;
  return {
    total: a.total + b.total,
    excluded: a.excluded + b.excluded,
    down: a.down + b.down,
    count: a.count + b.count - (joined ? 1 : 0),
    first: a.first === null ? b.first : joined && single(a) ? [a.first[0], merged] : a.first,
    last: b.last === null ? a.last : joined && single(b) ? [b.last[0], merged] : b.last,
    longest: Math.max(a.longest, b.longest, merged),
    days: [...a.days, ...b.days],
  };
};

export const combineAll = (summaries: readonly Summary[]): Summary => summaries.reduce(combine, emptySummary);
