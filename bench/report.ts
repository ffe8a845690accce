// The benchmark's output: every figure beside the baseline measured in the same run, as a table
// on stdout and as JSON in bench/results/latest.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export type Figure = {
  section: string;
  name: string;
  unit: string;
  value: number;
  baseline: { name: string; value: number } | null;
  /** value ÷ baseline, unless `ratioNote` says otherwise. */
  ratio: number | null;
  ratioNote?: string;
  target?: { text: string; met: boolean };
  detail?: Record<string, number | string>;
};

const SECTIONS: Record<string, string> = {
  http: 'HTTP: the demo page, 10 connections',
  notModified: 'HTTP: 304 path (If-None-Match with the current ETag)',
  http256: 'HTTP: the demo page, 256 connections',
  notModified256: 'HTTP: 304 path, 256 connections',
  readLoad: 'HTTP while the projector ingests (p99 ÷ projector idle) and freshness under that load',
  charts: 'Charts: served from the projection vs computed from PostgreSQL per request',
  ingest: 'Ingest + projection (real BullMQ worker process)',
  lag: 'Projection lag at a fixed offered rate',
  rebuild: 'Rebuild from the log',
  render: 'Render cost of one page (every output: load, render, commit)',
  memory: 'Redis memory',
  fleet: 'A fleet of quiet pages: steady state with one worker process (npm run bench -- --scale)',
  stream: 'Live streams (GET /api/embed/stream) on one API process',
  scale: 'Capacity model inputs (npm run bench -- --scale)',
  hostile: 'Hostile and careless clients against one API process (defaults; npm run bench -- --only hostile)',
  procs: 'Processes: compiled startup and WEB_CONCURRENCY',
  notify: 'Notifications: append → webhook received, rebuild and replay',
  notifyMail: 'Email notifications: one incident update to many subscribers, through a local SMTP server',
  integrations:
    'Integrations: an Alertmanager notification of 1,000 alerts (npm run bench -- --only integrations)',
  edge: 'Edge: the demo page behind Varnish (deploy/varnish/default.vcl), a herd of 64 connections',
};

const num = (x: number, unit = ''): string => {
  const digits = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : Math.abs(x) >= 1 ? 2 : 3;
  return `${x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })}${unit ? ` ${unit}` : ''}`;
};

const pad = (rows: string[][]): string[] => {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
};

export const formatTable = (figures: readonly Figure[]): string => {
  const out: string[] = [];
  for (const [section, title] of Object.entries(SECTIONS)) {
    const rows = figures.filter((f) => f.section === section);
    if (rows.length === 0) continue;
    out.push('', title);
    const table = [['figure', 'value', 'baseline', 'ratio', 'target']];
    for (const f of rows) {
      const extra =
        f.detail?.['p50_ms'] !== undefined
          ? ` (p50 ${num(Number(f.detail['p50_ms']))} / p99 ${num(Number(f.detail['p99_ms']))} ms)`
          : '';
      table.push([
        `  ${f.name}`,
        `${num(f.value, f.unit)}${extra}`,
        f.baseline
          ? `${f.baseline.name}: ${num(f.baseline.value, f.unit === 'ms' || f.unit === 's' ? f.unit : '')}`
          : '',
        f.ratio === null ? '' : `${num(f.ratio)}×${f.ratioNote ? ` ${f.ratioNote}` : ''}`,
        f.target ? `${f.target.met ? 'met' : 'MISSED'} (${f.target.text})` : '',
      ]);
    }
    out.push(...pad(table));
    for (const f of rows.filter((r) => typeof r.detail?.['note'] === 'string'))
      out.push(`  note: ${String(f.detail!['note'])}`);
  }
  return out.join('\n');
};

export const writeResults = async (document: object): Promise<string> => {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const path = `${dir}latest.json`;
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
  return path;
};
