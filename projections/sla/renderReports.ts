// A page's SLA reports from its document, its monitors' failures and month summaries (pure)
// (docs/read-models.md, "SLA reports").
import type { PageState } from '../types.ts';
import type { Span } from './intervals.ts';
import { monthsOf, periodBounds, type Period } from './periods.ts';
import { slaCsv, slaReportJson, type SlaReport } from './report.ts';
import { excludedSpans, monitorTarget, slaSettings } from './settings.ts';
import { combineAll, summarize, type Summary } from './summary.ts';

export type MonthSummaries = ReadonlyMap<number, Summary>;

type MonthsInput = Readonly<{
  state: PageState;
  /** Figures reach this instant (whole seconds). */
  asOf: number;
  /** The months to compute from `failures`, oldest first. */
  compute: readonly Period[];
  /** Per monitor: its failures overlapping the computed months (an open one ends at `asOf`). */
  failures: ReadonlyMap<number, readonly Span[]>;
}>;

/** `report` has no daily entries (they are only in `json`); the CSV needs none. */
export type RenderedReport = Readonly<{ period: Period; json: string; report: SlaReport }>;

/** Failures overlapping [from, to) of a list sorted by start. */
const overlapping = (failures: readonly Span[], from: number, to: number): Span[] => {
  let low = 0;
  let high = failures.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((failures[mid]?.end ?? Infinity) <= from) low = mid + 1;
    else high = mid;
  }
  const out: Span[] = [];
  for (let i = low; i < failures.length; i += 1) {
    const failure = failures[i];
    if (failure === undefined || failure.start >= to) break;
    if (failure.end > from) out.push(failure);
  }
  return out;
};

/** The summaries of `compute`, each up to the month's end or `asOf`, from the failures. */
export const computeMonths = (input: MonthsInput): Map<string, MonthSummaries> => {
  const settings = slaSettings(input.state.settings);
  const monitors = Object.values(input.state.monitors);
  const maintenances = Object.values(input.state.maintenances);
  const sorted = new Map(
    [...input.failures].map(([id, list]) => [id, [...list].sort((a, b) => a.start - b.start)] as const),
  );
  const computed = new Map<string, MonthSummaries>();
  for (const month of input.compute) {
    const [start, end] = periodBounds(settings.zone, month);
    const to = Math.min(end, input.asOf);
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
  return computed;
};

type ReportOf = Readonly<{
  slug: string;
  state: PageState;
  asOf: number;
  period: Period;
  /** The summary of one month that started by `asOf` and one monitor of the page. */
  summaryOf: (month: Period, monitorId: number) => Summary;
}>;

/** The report of `period` at `asOf`, combined from the summaries of its months that started. */
export const renderReport = ({ slug, state, asOf, period, summaryOf }: ReportOf): RenderedReport => {
  const settings = slaSettings(state.settings);
  const [start, end] = periodBounds(settings.zone, period);
  const months = monthsOf(period).filter((m) => periodBounds(settings.zone, m)[0] <= asOf);
  const { json, report } = slaReportJson({
    slug,
    period: period.label,
    zone: settings.zone,
    start,
    end,
    asOf,
    excludeMaintenance: settings.excludeMaintenance,
    monitors: Object.values(state.monitors).map((config) => {
      const parts = months.map((m) => summaryOf(m, config.id));
      return { config, target: monitorTarget(settings, config), summary: combineAll(parts), parts };
    }),
  });
  return { period, json, report };
};

/** The report's CSV (sla-reports.md): the JSON's figures, one row per monitor. */
export const reportCsv = (rendered: RenderedReport): string => slaCsv(rendered.report);
