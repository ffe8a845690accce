// Property: the report the API assembles at read time (stored summaries of complete months, made
// by the projector at an earlier instant and again after a backfill, through the codec; the
// current month from its failures) equals, byte for byte, the pure render of one summary of the
// whole window at the same instant: JSON and CSV, in zones with DST days and odd offsets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleReport } from '../../projections/sla/assembleReport.ts';
import type { Span } from '../../projections/sla/intervals.ts';
import { monthAt, periodBounds, quarterOf, yearPeriod, type Period } from '../../projections/sla/periods.ts';
import { computeMonths, reportCsv, type MonthSummaries } from '../../projections/sla/renderReports.ts';
import { slaCsv, slaReport } from '../../projections/sla/report.ts';
import { excludedSpans, monitorTarget, slaSettings } from '../../projections/sla/settings.ts';
import { monthsToStore } from '../../projections/sla/storedMonths.ts';
import { summarize } from '../../projections/sla/summary.ts';
import type { MaintenanceDoc, PageState } from '../../projections/types.ts';
import { decodeSummaries, encodeSummaries } from '../../projections/sla/codec.ts';
import { startOfLocalDate } from '../support/slaOracle.ts';

const ZONES = ['Europe/Berlin', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC'];
/** Local dates near month, quarter and DST boundaries (Europe, America, Lord Howe). */
const DATES = ['2026-01-01', '2026-03-08', '2026-03-29', '2026-04-01', '2026-04-05', '2026-07-01'];
const DATES_AFTER = ['2026-10-04', '2026-10-25', '2026-11-01', '2026-11-02', '2026-12-31'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FROM = Date.parse('2025-11-01T00:00:00Z');

const spanArb = fc.record({
  at: fc.integer({ min: 0, max: 420 * DAY }),
  length: fc.integer({ min: 1000, max: 30 * HOUR }),
});

const scenario = fc.record({
  zone: fc.constantFrom(...ZONES),
  exclude: fc.boolean(),
  target: fc.constantFrom(99.9, 99.5, 100, 95.125),
  monitors: fc.array(
    fc.record({
      target: fc.option(fc.constantFrom(99, 99.99)),
      failures: fc.array(spanArb, { maxLength: 12 }),
    }),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  /** Failures backfilled (late checks) after the projector stored its summaries. */
  backfilled: fc.array(fc.record({ monitor: fc.nat(2), span: spanArb }), { maxLength: 4 }),
  maintenances: fc.array(
    fc.record({
      span: spanArb,
      page: fc.boolean(),
      started: fc.option(fc.integer({ min: -HOUR, max: HOUR })),
      cut: fc.option(fc.double({ min: 0.1, max: 1, noNaN: true })),
    }),
    { maxLength: 3 },
  ),
  asOf: fc.record({
    date: fc.constantFrom(...DATES_AFTER),
    offset: fc.integer({ min: -30 * HOUR, max: 30 * HOUR }),
  }),
  stored: fc.record({
    date: fc.constantFrom(...DATES),
    offset: fc.integer({ min: -30 * HOUR, max: 30 * HOUR }),
  }),
  openLast: fc.boolean(),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const seconds = (t: number) => Math.floor(t / 1000) * 1000;

/** Sorted, disjoint failures (a later one overlapping an earlier one is dropped). */
const disjoint = (spans: readonly Span[]): Span[] => {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start))
    if (out.length === 0 || s.start >= out.at(-1)!.end) out.push(s);
  return out;
};

const pageOf = (s: Scenario): PageState => {
  const maintenances: Record<string, MaintenanceDoc> = {};
  s.maintenances.forEach((m, i) => {
    const start = FROM + m.span.at;
    const end = start + m.span.length;
    maintenances[`w${String(i)}`] = {
      id: `w${String(i)}`,
      title: 'w',
      description: '',
      scheduledStart: start,
      scheduledEnd: end,
      components: m.page ? [] : ['M0'],
      createdAt: FROM,
      started: m.started !== null,
      completed: m.cut !== null,
      cancelled: false,
      ...(m.started === null ? {} : { startedAt: start + m.started }),
      ...(m.cut === null ? {} : { completedAt: start + Math.round(m.span.length * m.cut) }),
    };
  });
  return {
    settings: {
      slug: 'acme',
      title: 'Acme',
      plan: 'business',
      customDomain: null,
      tokenHash: null,
      blocked: false,
      configuredAt: FROM,
      timeZone: s.zone,
      slaTarget: s.target,
      slaExcludeMaintenance: s.exclude,
    },
    deleted: false,
    updatedAt: FROM,
    monitors: Object.fromEntries(
      s.monitors.map((m, i) => [
        i + 1,
        {
          id: i + 1,
          name: `M${String(i)}`,
          type: 'http',
          impact: 'partial' as const,
          position: i === 2 ? 1 : null,
          ...(m.target === null ? {} : { slaTarget: m.target }),
        },
      ]),
    ),
    incidents: {},
    maintenances,
  };
};

/**
 * The monitors' failures as known at `t`, with or without the backfilled ones: the last one of the
 * final history (at `asOf`, backfilled) may still be open, so at `t` it ends at `t`.
 */
const failuresAt = (s: Scenario, t: number, asOf: number, backfilled: boolean): Map<number, Span[]> =>
  new Map(
    s.monitors.map((m, i) => {
      const own = m.failures.map((f) => ({ start: FROM + f.at, end: FROM + f.at + f.length }));
      const late = s.backfilled
        .filter((b) => b.monitor === i)
        .map((b) => ({ start: FROM + b.span.at, end: FROM + b.span.at + b.span.length }));
      const open = disjoint([...own, ...late])
        .filter((f) => f.start < asOf)
        .at(-1);
      const list = disjoint(backfilled ? [...own, ...late] : own)
        .filter((f) => f.start < t)
        .map((f) => (s.openLast && f.start === open?.start ? { start: f.start, end: t } : f));
      return [i + 1, list.map((f) => ({ start: f.start, end: Math.min(f.end, t) }))];
    }),
  );

/** `actual` equals `expected`, or the first place they differ. */
const same = (actual: string | undefined, expected: string) => {
  if (actual === expected) return;
  let at = 0;
  while (at < expected.length && actual?.[at] === expected[at]) at += 1;
  expect(actual?.slice(Math.max(0, at - 150), at + 150)).toBe(
    expected.slice(Math.max(0, at - 150), at + 150),
  );
};

/** What the projector stores: its months' summaries through the codec. */
const store = (
  into: Map<string, MonthSummaries>,
  state: PageState,
  asOf: number,
  compute: Period[],
  failures: Map<number, Span[]>,
) => {
  for (const [label, summaries] of computeMonths({ state, asOf, compute, failures }))
    into.set(label, decodeSummaries(encodeSummaries(summaries))!);
};

/** The pure render of one summary of the whole window [start, min(end, asOf)). */
const fullReport = (state: PageState, period: Period, asOf: number, failures: Map<number, Span[]>) => {
  const settings = slaSettings(state.settings);
  const [start, end] = periodBounds(settings.zone, period);
  const monitors = Object.values(state.monitors).map((config) => ({
    config,
    target: monitorTarget(settings, config),
    summary: summarize({
      zone: settings.zone,
      from: start,
      to: Math.min(end, asOf),
      excluded: excludedSpans(settings, Object.values(state.maintenances), config),
      failures: failures.get(config.id) ?? [],
    }),
  }));
  return slaReport({
    slug: 'acme',
    period: period.label,
    zone: settings.zone,
    start,
    end,
    asOf,
    excludeMaintenance: settings.excludeMaintenance,
    monitors,
  });
};

describe('SLA reports assembled at read time', () => {
  it('equal the pure render of the whole window, byte for byte', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const state = pageOf(s);
        const asOf = seconds(startOfLocalDate(s.zone, s.asOf.date) + s.asOf.offset);
        const storedAt = seconds(startOfLocalDate(s.zone, s.stored.date) + s.stored.offset);
        // The projector: every complete month at `storedAt`, then (a month completed, a backfill
        // marked the page from its earliest failure) the months the marks and the clock ask for.
        const stored = new Map<string, MonthSummaries>();
        store(
          stored,
          state,
          storedAt,
          monthsToStore({ zone: s.zone, asOf: storedAt, changedFrom: 0, storedUntil: null }),
          failuresAt(s, storedAt, asOf, false),
        );
        const late = s.backfilled.map((b) => FROM + b.span.at);
        const now = failuresAt(s, asOf, asOf, true);
        const compute = monthsToStore({
          zone: s.zone,
          asOf,
          changedFrom: late.length === 0 ? null : Math.min(...late),
          storedUntil: monthAt(s.zone, storedAt).label,
        });
        store(stored, state, asOf, compute, now);
        const current = monthAt(s.zone, asOf);
        const previous = monthAt(s.zone, periodBounds(s.zone, current)[0] - 1);
        for (const period of [
          current,
          quarterOf(current),
          yearPeriod(current.year),
          previous,
          quarterOf(previous),
        ]) {
          const [start] = periodBounds(s.zone, current);
          const thisMonth = new Map([...now].map(([id, list]) => [id, list.filter((f) => f.end > start)]));
          const assembled = assembleReport({
            slug: 'acme',
            state,
            asOf,
            period,
            stored,
            failures: thisMonth,
          });
          const expected = fullReport(state, period, asOf, now);
          same(assembled?.json, JSON.stringify(expected));
          same(assembled ? reportCsv(assembled) : undefined, slaCsv(expected));
        }
      }),
      { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 150) },
    );
    // 150 random windows take about 3 s alone: more than the default 5 s beside the whole suite.
  }, 60_000);
});
