// The printable SLA report (sla-reports.md, "The printable report"): one self-contained HTML
// document with its own print stylesheet, A4 pages, no table row cut in two.
import { must } from '../../src/shared/must.ts';
import { escapeHtmlAttr as esc } from '../render/escape.ts';
import type { DailyEntry } from './figures.ts';
import { parsePeriod } from './periods.ts';
import type { MonitorReport, SlaReport } from './report.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** January for 0. */
const monthName = (index: number): string => must(MONTHS[index], 'a month name');

/** "October 2026", "Q3 2026 (July – September)", "2026". */
const periodTitle = (label: string): string => {
  const period = parsePeriod(label);
  if (period === null) return label;
  if (period.months === 1) return `${monthName(period.month - 1)} ${String(period.year)}`;
  if (period.months === 3)
    return `Q${String((period.month + 2) / 3)} ${String(period.year)} (${monthName(period.month - 1)} – ${monthName(period.month + 1)})`;
  return String(period.year);
};

/** 9000 → "2 h 30 min"; whole seconds, largest units first. */
const duration = (seconds: number): string => {
  const sign = seconds < 0 ? '−' : '';
  let rest = Math.abs(seconds);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${String(n)} ${unit}`);
  }
  return parts.length === 0 ? '0 s' : sign + parts.join(' ');
};

const pct = (value: number): string => `${value.toFixed(3)} %`;
const row = (label: string, value: string, cls = ''): string =>
  `<tr${cls ? ` class="${cls}"` : ''}><th scope="row">${label}</th><td>${value}</td></tr>`;

const figuresTable = (m: MonitorReport): string => `<table class="figures">
<tbody>
${row('Target', pct(m.sla_target))}
${row('Uptime', pct(m.uptime_percentage), m.met ? 'met' : 'missed')}
${row('Target met', m.met ? 'Yes' : 'No', m.met ? 'met' : 'missed')}
${row('Period length', `${duration(m.total_seconds)} (${String(m.total_seconds)} s)`)}
${row('Maintenance left out', `${duration(m.excluded_seconds)} (${String(m.excluded_seconds)} s)`)}
${row('Downtime', `${duration(m.downtime_seconds)} (${String(m.downtime_seconds)} s)`)}
${row('Failures', String(m.incident_count))}
${row('Longest outage', duration(m.longest_outage_seconds))}
${row('Mean time between failures', duration(m.mtbf_seconds))}
${row('Mean time to recovery', duration(m.mttr_seconds))}
${row('Error budget', `${duration(m.error_budget_seconds)} (${String(m.error_budget_seconds)} s)`)}
${row('Error budget left', `${duration(m.error_budget_remaining_seconds)} (${String(m.error_budget_remaining_seconds)} s)`, m.met ? 'met' : 'missed')}
</tbody>
</table>`;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "Saturday, 31 October" under the date: a row of two lines that print must keep together. */
const dayName = (date: string): string => {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = must(WEEKDAYS[day.getUTCDay()], 'a weekday name');
  return `${weekday}, ${String(day.getUTCDate())} ${monthName(day.getUTCMonth())}`;
};

/** A day's bar: the share of its counted time that was up, drawn from 0 to 100 %. */
const dayRow = (d: DailyEntry, target: number): string => {
  const ok = d.uptime_percentage >= target;
  return `<tr class="${ok ? 'met' : 'missed'}"><td>${d.date}<br><span class="dow">${dayName(d.date)}</span></td><td class="num">${pct(d.uptime_percentage)}</td><td class="num">${duration(d.downtime_seconds)}</td><td class="num">${duration(d.excluded_seconds)}</td><td class="bar"><span style="width:${String(d.uptime_percentage)}%"></span></td></tr>`;
};

const dailyTable = (m: MonitorReport): string => `<table class="daily">
<thead><tr><th scope="col">Day</th><th scope="col">Uptime</th><th scope="col">Downtime</th><th scope="col">Maintenance</th><th scope="col">Uptime bar</th></tr></thead>
<tbody>
${m.daily.map((d) => dayRow(d, m.sla_target)).join('\n')}
</tbody>
</table>`;

const STYLE = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;margin:0;background:#fff}
main{max-width:820px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;break-after:avoid;page-break-after:avoid}
.meta{color:#444;margin:0 0 4px}.summary{font-weight:600}.summary.missed,.missed td:first-child{color:#a40000}
table{border-collapse:collapse;width:100%;margin:0 0 12px}
th,td{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:middle}
table.figures th{width:45%;font-weight:500;color:#333}
.num{text-align:right;white-space:nowrap}.dow{color:#555;font-size:.85em}
td.bar{width:30%}td.bar span{display:block;height:10px;background:#2e7d32;min-width:1px}
tr.missed td.bar span{background:#c62828}
tr,table.figures{break-inside:avoid;page-break-inside:avoid}
thead{display:table-header-group}
.monitor{break-before:auto}
a{color:#0b57d0}
@page{size:A4;margin:14mm 12mm}
@media print{main{max-width:none;padding:0}body{font-size:11px}.noprint{display:none}a{color:#111;text-decoration:none}td.bar span{print-color-adjust:exact;-webkit-print-color-adjust:exact}}
`;

type ReportPageOptions = Readonly<{ title: string; csvUrl: string; statusUrl: string }>;

export const reportHtml = (report: SlaReport, options: ReportPageOptions): string => {
  const heading = `${esc(options.title)} — SLA report, ${esc(periodTitle(report.period))}`;
  const state = report.complete ? 'complete' : `up to ${esc(report.as_of)} (in progress)`;
  const monitors = report.monitors
    .map(
      (m) => `<section class="monitor">
<h2>${esc(m.monitor_name)}</h2>
${figuresTable(m)}
${dailyTable(m)}
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${heading}</h1>
<p class="meta">Period ${esc(report.period)} in ${esc(report.time_zone)}: from ${esc(report.start)} to ${esc(report.end)} (UTC), ${state}.</p>
<p class="meta">Planned maintenance is ${report.exclude_maintenance ? 'left out of' : 'counted in'} the figures. Time without data counts as up.</p>
<p class="summary ${report.met_all ? 'met' : 'missed'}">${report.met_all ? 'Every monitor met its target.' : 'Not every monitor met its target.'}</p>
<p class="noprint"><a href="${esc(options.csvUrl)}">Download CSV</a> · <a href="${esc(options.statusUrl)}">Status page</a></p>
${monitors || '<p>This page has no monitors.</p>'}
</main>
</body>
</html>
`;
};
