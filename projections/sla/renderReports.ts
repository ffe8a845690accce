// A page's SLA reports from its document, its monitors' failures and the month summaries stored
// before (pure). Months are computed from failures; quarters and years are combined from their
// months' summaries, so a year costs about what its months' daily entries cost to write.
import type { PageState } from '../types.ts';
import type { Span } from './intervals.ts';
import { monthsOf, periodBounds, quarterOf, yearPeriod, type Period } from './periods.ts';
import { slaCsv, slaReportJson } from './report.ts';
import { excludedSpans, monitorTarget, slaSettings } from './settings.ts';
import { combineAll, emptySummary, summarize, type Summary } from './summary.ts';

export type MonthSummaries = ReadonlyMap<number, Summary>;

export type SlaRenderInput = Readonly<{
  slug: string;
  state: PageState;
  /** Figures reach this instant (whole seconds). */
  asOf: number;
  /** The months to compute from `failures`, oldest first. */
  compute: readonly Period[];
  /** Per monitor: its failures overlapping the computed months (an open one ends at `asOf`). */
  failures: ReadonlyMap<number, readonly Span[]>;
  /** Summaries of the other months of the quarters and years to combine. */
  stored: ReadonlyMap<string, MonthSummaries>;
}>;

export type RenderedReport = Readonly<{ period: Period; json: string; csv: string }>;

export type SlaRenderOutput = Readonly<{
  summaries: (readonly [month: Period, MonthSummaries])[];
  reports: RenderedReport[];
}>;

/** Failures overlapping [from, to) of a list sorted by start. */
const overlapping = (failures: readonly Span[], from: number, to: number): Span[] => {
  let low = 0;
  let high = failures.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (failures[mid]!.end <= from) low = mid + 1;
    else high = mid;
  }
  const out: Span[] = [];
  for (let i = low; i < failures.length && failures[i]!.start < to; i += 1)
    if (failures[i]!.end > from) out.push(failures[i]!);
  return out;
};

/** The quarters and years holding `months`, each once. */
export const enclosing = (months: readonly Period[]): Period[] => {
  const byLabel = new Map<string, Period>();
  for (const month of months)
    for (const p of [quarterOf(month), yearPeriod(month.year)]) byLabel.set(p.label, p);
  return [...byLabel.values()];
};

export const renderSlaReports = (input: SlaRenderInput): SlaRenderOutput => {
  const { state, asOf } = input;
  const settings = slaSettings(state.settings);
  const monitors = Object.values(state.monitors);
  const maintenances = Object.values(state.maintenances);
  const sorted = new Map(
    [...input.failures].map(([id, list]) => [id, [...list].sort((a, b) => a.start - b.start)] as const),
  );
  const computed = new Map<string, MonthSummaries>();
  for (const month of input.compute) {
    const [start, end] = periodBounds(settings.zone, month);
    const to = Math.min(end, asOf);
    computed.set(
      month.label,
      new Map(
        monitors.map((monitor) => [
          monitor.id,
          summarize({
            zone: settings.zone,
            from: start,
            to,
            excluded: excludedSpans(settings, maintenances, monitor),
            failures: overlapping(sorted.get(monitor.id) ?? [], start, to),
          }),
        ]),
      ),
    );
  }
  const summaryOf = (month: Period, id: number): Summary =>
    (computed.get(month.label) ?? input.stored.get(month.label))?.get(id) ?? emptySummary;
  const report = (period: Period): RenderedReport => {
    const [start, end] = periodBounds(settings.zone, period);
    const months = monthsOf(period).filter((m) => periodBounds(settings.zone, m)[0] <= asOf);
    const { json, report: body } = slaReportJson({
      slug: input.slug,
      period: period.label,
      zone: settings.zone,
      start,
      end,
      asOf,
      excludeMaintenance: settings.excludeMaintenance,
      monitors: monitors.map((config) => {
        const parts = months.map((m) => summaryOf(m, config.id));
        return { config, target: monitorTarget(settings, config), summary: combineAll(parts), parts };
      }),
    });
    return { period, json, csv: slaCsv(body) };
  };
  return {
    summaries: input.compute.map((m) => [m, computed.get(m.label)!] as const),
    reports: [...input.compute, ...enclosing(input.compute)].map(report),
  };
};
