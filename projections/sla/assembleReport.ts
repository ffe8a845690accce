// A report as the API assembles it at read time (docs/architecture.md, "SLA reports at read
// time"): the stored summaries of the period's complete months, and the current month computed
// from its failures up to `asOf`, by the same functions the projector uses (renderReports.ts).
import type { PageState } from '../types.ts';
import type { Span } from './intervals.ts';
import { monthAt, monthsOf, periodBounds, type Period } from './periods.ts';
import { computeMonths, renderReport, type MonthSummaries, type RenderedReport } from './renderReports.ts';
import { slaSettings } from './settings.ts';
import type { Summary } from './summary.ts';
import { must } from '../../src/shared/must.ts';

/** The months of `period` that started by `asOf`: those stored (complete) and the current one. */
export const periodMonths = (
  zone: string,
  period: Period,
  asOf: number,
): Readonly<{ stored: Period[]; current: Period | null }> => {
  const started = monthsOf(period).filter((m) => periodBounds(zone, m)[0] <= asOf);
  const now = monthAt(zone, asOf).label;
  return {
    stored: started.filter((m) => m.label !== now),
    current: started.find((m) => m.label === now) ?? null,
  };
};

export type AssembleInput = Readonly<{
  slug: string;
  state: PageState;
  asOf: number;
  period: Period;
  /** The stored summaries of the period's complete months, by label. */
  stored: ReadonlyMap<string, MonthSummaries>;
  /** Per monitor: its failures overlapping the current month (an open one ends at `asOf`). */
  failures: ReadonlyMap<number, readonly Span[]>;
}>;

/** The report, or null when a complete month's summary (of some monitor) is not stored yet. */
export const assembleReport = (input: AssembleInput): RenderedReport | null => {
  const { zone } = slaSettings(input.state.settings);
  const { stored, current } = periodMonths(zone, input.period, input.asOf);
  const ids = Object.values(input.state.monitors).map((m) => m.id);
  const complete = stored.every((m) => {
    const summaries = input.stored.get(m.label);
    return summaries !== undefined && ids.every((id) => summaries.has(id));
  });
  if (!complete) return null;
  const computed = computeMonths({ ...input, compute: current === null ? [] : [current] });
  // Every month is computed or stored complete (checked above), with every monitor's summary.
  const summaryOf = (month: Period, id: number): Summary =>
    must(
      (computed.get(month.label) ?? input.stored.get(month.label))?.get(id),
      'the summary of a monitor in a month of the report',
    );
  return renderReport({ ...input, summaryOf });
};
