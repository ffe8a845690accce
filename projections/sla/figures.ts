// The shown figures of a summary (sla-reports.md, "Figures"): exact ms floored to seconds only
// when shown, percentages rounded half up to 3 decimals with integer arithmetic.
import { dateLabel } from './zone.ts';
import type { DayFigures, Summary } from './summary.ts';

/** ⌊a ÷ b⌋ for non-negative integers, without float rounding. */
const div = (a: number, b: number): number => (a - (a % b)) / b;

/** 100 × part ÷ whole rounded half up to 3 decimals; 100 when whole is 0. */
const percent = (part: number, whole: number): number =>
  whole === 0 ? 100 : div(2 * part * 100_000 + whole, 2 * whole) / 1000;

/** A target as thousandths of a percent (99.95 → 99950). */
const targetThousandths = (target: number): number => Math.round(target * 1000);

export type DailyEntry = Readonly<{
  date: string;
  total_seconds: number;
  excluded_seconds: number;
  downtime_seconds: number;
  uptime_percentage: number;
}>;

export type MonitorFigures = Readonly<{
  total_seconds: number;
  excluded_seconds: number;
  downtime_seconds: number;
  uptime_percentage: number;
  incident_count: number;
  mtbf_seconds: number;
  mttr_seconds: number;
  longest_outage_seconds: number;
  error_budget_seconds: number;
  error_budget_remaining_seconds: number;
  met: boolean;
}>;

const labels = new Map<number, string>();
/** `YYYY-MM-DD` of a day number, memoised (a year's report names every day of it). */
const labelOf = (day: number): string => {
  let label = labels.get(day);
  if (label === undefined) {
    if (labels.size > 100_000) labels.clear();
    label = dateLabel(day);
    labels.set(day, label);
  }
  return label;
};

/** One day's entry as JSON text, the fields in the contract's order (a report holds many). */
export const dailyJson = ([day, total, excluded, down]: DayFigures): string =>
  `{"date":"${labelOf(day)}","total_seconds":${String(div(total, 1000))},"excluded_seconds":${String(div(excluded, 1000))},"downtime_seconds":${String(div(down, 1000))},"uptime_percentage":${String(percent(total - excluded - down, total - excluded))}}`;

export const dailyEntry = ([day, total, excluded, down]: DayFigures): DailyEntry => ({
  date: dateLabel(day),
  total_seconds: div(total, 1000),
  excluded_seconds: div(excluded, 1000),
  downtime_seconds: div(down, 1000),
  uptime_percentage: percent(total - excluded - down, total - excluded),
});

export const figuresOf = (s: Summary, target: number): MonitorFigures => {
  const counted = s.total - s.excluded;
  const up = counted - s.down;
  const failures = s.count;
  const downtime = div(s.down, 1000);
  const budget = div(counted * (100_000 - targetThousandths(target)), 100_000_000);
  return {
    total_seconds: div(s.total, 1000),
    excluded_seconds: div(s.excluded, 1000),
    downtime_seconds: downtime,
    uptime_percentage: percent(up, counted),
    incident_count: failures,
    mtbf_seconds: failures === 0 ? div(up, 1000) : div(up, 1000 * failures),
    mttr_seconds: failures === 0 ? 0 : div(s.down, 1000 * failures),
    longest_outage_seconds: div(s.longest, 1000),
    error_budget_seconds: budget,
    error_budget_remaining_seconds: budget - downtime,
    met: budget - downtime >= 0,
  };
};
