// The SLA report of one period as the JSON body and the CSV of sla-reports.md, "Endpoint".
import { must } from '../../src/shared/must.ts';
import { formatTimestamp } from '../../src/shared/time.ts';
import { inDisplayOrder } from '../render/monitorOrder.ts';
import type { MonitorConfig } from '../types.ts';
import { dailyEntry, dailyJson, figuresOf, type DailyEntry, type MonitorFigures } from './figures.ts';
import type { Summary } from './summary.ts';

/** `parts`: the summaries the period's summary combines, oldest first (their daily entries in turn). */
type ReportMonitor = Readonly<{
  config: MonitorConfig;
  target: number;
  summary: Summary;
  parts?: readonly Summary[];
}>;

const dailyTexts = new WeakMap<Summary, string>();
/** A summary's daily entries as JSON text, made once per summary (a month's serve its quarter and year too). */
const dailyText = (summary: Summary): string => {
  let text = dailyTexts.get(summary);
  if (text === undefined) {
    text = summary.days.map(dailyJson).join(',');
    dailyTexts.set(summary, text);
  }
  return text;
};

type ReportInput = Readonly<{
  slug: string;
  period: string;
  zone: string;
  start: number;
  end: number;
  /** The instant the figures reach (the period's end once it is over). */
  asOf: number;
  excludeMaintenance: boolean;
  monitors: readonly ReportMonitor[];
}>;

export type MonitorReport = Readonly<{ monitor_id: number; monitor_name: string; sla_target: number }> &
  MonitorFigures &
  Readonly<{ daily: DailyEntry[] }>;

export type SlaReport = Readonly<{
  page: string;
  period: string;
  time_zone: string;
  start: string;
  end: string;
  complete: boolean;
  as_of: string;
  exclude_maintenance: boolean;
  met_all: boolean;
  monitors: MonitorReport[];
}>;

/**
 * The report as JSON text, byte for byte JSON.stringify(slaReport(input)), but with each month's
 * daily entries written once and joined into its quarter and year.
 */
export const slaReportJson = (input: ReportInput): { json: string; report: SlaReport } => {
  const report = slaReport({
    ...input,
    monitors: input.monitors.map((m) => ({ ...m, summary: { ...m.summary, days: [] } })),
  });
  const byId = new Map(input.monitors.map((m) => [m.config.id, m]));
  const monitors = report.monitors.map(({ daily: _daily, ...figures }) => {
    const m = must(byId.get(figures.monitor_id), 'the monitor of a report row');
    const days = (m.parts ?? [m.summary]).map(dailyText).filter((text) => text !== '');
    return `${JSON.stringify(figures).slice(0, -1)},"daily":[${days.join(',')}]}`;
  });
  const { monitors: _monitors, ...head } = report;
  return { json: `${JSON.stringify(head).slice(0, -1)},"monitors":[${monitors.join(',')}]}`, report };
};

export const slaReport = (input: ReportInput): SlaReport => {
  const byConfig = new Map(input.monitors.map((m) => [m.config, m]));
  const monitors = inDisplayOrder(input.monitors.map((m) => m.config)).map((config): MonitorReport => {
    const { target, summary } = must(byConfig.get(config), 'the monitor of a report row');
    return {
      monitor_id: config.id,
      monitor_name: config.name,
      sla_target: target,
      ...figuresOf(summary, target),
      daily: summary.days.map(dailyEntry),
    };
  });
  const complete = input.asOf >= input.end;
  return {
    page: input.slug,
    period: input.period,
    time_zone: input.zone,
    start: formatTimestamp(input.start),
    end: formatTimestamp(input.end),
    complete,
    as_of: formatTimestamp(complete ? input.end : input.asOf),
    exclude_maintenance: input.excludeMaintenance,
    met_all: monitors.every((m) => m.met),
    monitors,
  };
};

const CSV_COLUMNS = [
  'monitor_id',
  'monitor_name',
  'period',
  'start',
  'end',
  'sla_target',
  'total_seconds',
  'excluded_seconds',
  'downtime_seconds',
  'uptime_percentage',
  'incident_count',
  'mtbf_seconds',
  'mttr_seconds',
  'longest_outage_seconds',
  'error_budget_seconds',
  'error_budget_remaining_seconds',
  'met',
] as const;

/** A text cell by RFC 4180, defused for spreadsheets: a leading =, +, -, @, tab or CR gets a `'`. */
export const csvText = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export const slaCsv = (report: SlaReport): string => {
  const rows = report.monitors.map((m) =>
    [
      String(m.monitor_id),
      csvText(m.monitor_name),
      report.period,
      report.start,
      report.end,
      String(m.sla_target),
      String(m.total_seconds),
      String(m.excluded_seconds),
      String(m.downtime_seconds),
      String(m.uptime_percentage),
      String(m.incident_count),
      String(m.mtbf_seconds),
      String(m.mttr_seconds),
      String(m.longest_outage_seconds),
      String(m.error_budget_seconds),
      String(m.error_budget_remaining_seconds),
      String(m.met),
    ].join(','),
  );
  return [CSV_COLUMNS.join(','), ...rows].map((line) => `${line}\r\n`).join('');
};
