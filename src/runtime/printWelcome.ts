// What `npm start` prints once everything listens: URLs to try (for the demo page, or with a
// placeholder slug), the operator endpoints, and how to turn ingest on.
import type { Config } from '../config.ts';

export type WelcomeOptions = Readonly<{
  demo: boolean;
  /** For the month parameters (the current UTC month). */
  now?: Date;
  out?: Readonly<{ write: (text: string) => unknown }>;
}>;

// A wildcard bind address is not something to put in a browser.
const reachable = (host: string): string =>
  host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

export const welcomeText = (config: Config, options: WelcomeOptions): string => {
  const base = config.publicBaseUrl;
  const slug = options.demo ? 'demo' : '<slug>';
  const month = (options.now ?? new Date()).toISOString().slice(0, 7);
  const operator = `http://${reachable(config.ingestHost)}:${config.ingestPort}`;
  const page = `${base}/api/status-pages/${slug}`;
  const tries: [string, string][] = [
    [`${base}/s/${slug}`, 'the status page'],
    [`${page}/incidents`, 'incident history'],
    [`${page}/incidents/filter?month=${month}`, ''],
    [`${page}/incidents/daily-counts?month=${month}`, ''],
    [`${page}/maintenances`, 'maintenance windows'],
    [`${page}/maintenances?status=in_progress`, ''],
    [`${page}/maintenances/filter?month=${month}`, ''],
    [`${page}/maintenances/daily-counts?month=${month}`, ''],
    [`${base}/api/status/${slug}/charts`, 'charts of every monitor'],
    [`${base}/api/status-page/${slug}/minute-data`, ''],
    [
      `${page}/monitors/${options.demo ? '1' : '<monitorId>'}/availability?period=30d`,
      'uptime, MTBF and MTTR of a monitor',
    ],
    [`${base}/api/embed/status?slug=${slug}&inc=1&rtm=60&upd=7`, 'embed status with sparklines'],
    [`${base}/api/embed/markdown?slug=${slug}`, 'badge and widget snippets'],
    [`${base}/badge/${slug}.svg`, 'the badge'],
    [`${base}/openapi.json`, 'the API description'],
  ];
  const width = Math.max(...tries.filter(([, note]) => note).map(([url]) => url.length));
  const lines = [
    '',
    options.demo
      ? 'Status page API is running, with the demo page "demo" (6 monitors, 90 days of history, a live agent).'
      : 'Status page API is running. Append events (below) to create pages; <slug> is a page slug.',
    '',
    'Try:',
    ...tries.map(([url, note]) => (note ? `  ${url.padEnd(width)}  ${note}` : `  ${url}`)),
    '',
    `Operator endpoints (${operator}, not on the public port):`,
    `  ${operator}/v1/projection-status`,
    `  ${operator}/metrics`,
    `  ${operator}/readyz`,
    '',
    config.ingestToken
      ? `Ingest: POST ${operator}/v1/events with "Authorization: Bearer $INGEST_TOKEN" (a JSON array or NDJSON), or npm run ingest -- <file.ndjson>.`
      : `Ingest over HTTP is disabled: set INGEST_TOKEN (16+ characters) to accept POST ${operator}/v1/events. npm run ingest -- <file.ndjson> works without it.`,
    '',
  ];
  return lines.join('\n');
};

export const printWelcome = (config: Config, options: WelcomeOptions): void => {
  (options.out ?? process.stdout).write(welcomeText(config, options));
};
