// The printable SLA report (sla-reports.md, "The printable report"): one self-contained HTML
// document with its own print stylesheet, A4 pages, no table row cut in two.
import { translate } from '../locale/catalogues.ts';
import { formatsFor, type Formats } from '../locale/format.ts';
import type { Locale } from '../locale/locales.ts';
import type { Translator } from '../locale/translate.ts';
import { escapeHtmlAttr as esc } from '../render/escape.ts';
import type { DailyEntry } from './figures.ts';
import { parsePeriod } from './periods.ts';
import type { MonitorReport, SlaReport } from './report.ts';

/** The words and the formats of one language. */
type Speech = Readonly<{ t: Translator['t']; f: Formats }>;

/** "October 2026", "Q3 2026 (July – September)", "2026". */
const periodTitle = ({ t, f }: Speech, label: string): string => {
  const period = parsePeriod(label);
  if (period === null) return label;
  const year = String(period.year);
  if (period.months === 1) return f.month(`${year}-${String(period.month).padStart(2, '0')}`);
  if (period.months === 3)
    return t('report.quarter', {
      quarter: String((period.month + 2) / 3),
      year,
      from: f.monthName(period.month),
      to: f.monthName(period.month + 2),
    });
  return year;
};

const row = (label: string, value: string, cls = ''): string =>
  `<tr${cls ? ` class="${cls}"` : ''}><th scope="row">${esc(label)}</th><td>${esc(value)}</td></tr>`;

const figuresTable = ({ t, f }: Speech, m: MonitorReport): string => {
  const exact = (seconds: number) =>
    `${f.durationExact(seconds)} (${t('report.seconds', { count: seconds })})`;
  const met = m.met ? 'met' : 'missed';
  return `<table class="figures">
<tbody>
${row(t('report.target'), f.percentFixed(m.sla_target))}
${row(t('report.uptime'), f.percentFixed(m.uptime_percentage), met)}
${row(t('report.met'), m.met ? t('report.yes') : t('report.no'), met)}
${row(t('report.length'), exact(m.total_seconds))}
${row(t('report.excluded'), exact(m.excluded_seconds))}
${row(t('report.downtime'), exact(m.downtime_seconds))}
${row(t('report.failures'), f.integer(m.incident_count))}
${row(t('report.longest'), f.durationExact(m.longest_outage_seconds))}
${row(t('report.mtbf'), f.durationExact(m.mtbf_seconds))}
${row(t('report.mttr'), f.durationExact(m.mttr_seconds))}
${row(t('report.budget'), exact(m.error_budget_seconds))}
${row(t('report.budgetLeft'), exact(m.error_budget_remaining_seconds), met)}
</tbody>
</table>`;
};

/** A day's bar: the share of its counted time that was up, drawn from 0 to 100 %. */
const dayRow = ({ f }: Speech, d: DailyEntry, target: number): string => {
  const ok = d.uptime_percentage >= target;
  // The date, then "Saturday, October 31" under it: a row of two lines that print must keep together.
  return `<tr class="${ok ? 'met' : 'missed'}"><td>${d.date}<br><span class="dow">${esc(f.weekdayDate(d.date))}</span></td><td class="num">${esc(f.percentFixed(d.uptime_percentage))}</td><td class="num">${esc(f.durationExact(d.downtime_seconds))}</td><td class="num">${esc(f.durationExact(d.excluded_seconds))}</td><td class="bar"><span style="width:${String(d.uptime_percentage)}%"></span></td></tr>`;
};

const dailyTable = (speech: Speech, m: MonitorReport): string => {
  const { t } = speech;
  const head = [
    t('report.day'),
    t('report.uptime'),
    t('report.downtime'),
    t('report.maintenance'),
    t('report.bar'),
  ]
    .map((name) => `<th scope="col">${esc(name)}</th>`)
    .join('');
  return `<table class="daily">
<thead><tr>${head}</tr></thead>
<tbody>
${m.daily.map((d) => dayRow(speech, d, m.sla_target)).join('\n')}
</tbody>
</table>`;
};

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

type ReportPageOptions = Readonly<{ title: string; csvUrl: string; statusUrl: string; locale: Locale }>;

/** Instants are shown in UTC, and say so: a report has no reader's zone (docs/status-page.md). */
export const reportHtml = (report: SlaReport, options: ReportPageOptions): string => {
  const { t } = translate(options.locale);
  const speech: Speech = { t, f: formatsFor(options.locale) };
  const utc = (iso: string) => speech.f.dateTimePlain(new Date(iso), 'UTC');
  const heading = esc(
    t('report.heading', { title: options.title, period: periodTitle(speech, report.period) }),
  );
  const state = report.complete ? t('report.complete') : t('report.inProgress', { asOf: utc(report.as_of) });
  const monitors = report.monitors
    .map(
      (m) => `<section class="monitor">
<h2>${esc(m.monitor_name)}</h2>
${figuresTable(speech, m)}
${dailyTable(speech, m)}
</section>`,
    )
    .join('\n');
  const period = t('report.period', {
    period: report.period,
    zone: report.time_zone,
    start: utc(report.start),
    end: utc(report.end),
    state,
  });
  return `<!doctype html>
<html lang="${options.locale}">
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
<p class="meta">${esc(period)}</p>
<p class="meta">${esc(report.exclude_maintenance ? t('report.maintenanceOut') : t('report.maintenanceIn'))}</p>
<p class="summary ${report.met_all ? 'met' : 'missed'}">${esc(report.met_all ? t('report.metAll') : t('report.missedSome'))}</p>
<p class="noprint"><a href="${esc(options.csvUrl)}">${esc(t('report.csv'))}</a> · <a href="${esc(options.statusUrl)}">${esc(t('report.statusPage'))}</a></p>
${monitors || `<p>${esc(t('report.noMonitors'))}</p>`}
</main>
</body>
</html>
`;
};
