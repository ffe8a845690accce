// What `npm start` prints once everything listens: the URLs to try, only those that answered
// when asked (welcome.ts checks them), the operator endpoints, and how to turn ingest on.
import { browsableHost, type Config } from '../config.ts';

/** The page the URLs are about: the demo when it is there, else the first page of the log. */
export type WelcomePage = Readonly<{ slug: string; monitorId: number | null; isDemo: boolean }>;
export type Try = readonly [path: string, note: string];

/** Every URL worth trying, as paths; welcome.ts keeps those that answer. */
export const candidatePaths = (page: WelcomePage | null, now: Date): readonly Try[] => {
  const general: Try[] = [['/openapi.json', 'the API description']];
  if (page === null) return general;
  const { slug, monitorId } = page;
  const month = now.toISOString().slice(0, 7);
  const base = `/api/status-pages/${slug}`;
  return [
    [`/s/${slug}`, 'the status page'],
    [`${base}/incidents`, 'incident history'],
    [`${base}/incidents/filter?month=${month}`, ''],
    [`${base}/incidents/daily-counts?month=${month}`, ''],
    [`${base}/maintenances`, 'maintenance windows'],
    [`${base}/maintenances?status=in_progress`, ''],
    [`${base}/maintenances/filter?month=${month}`, ''],
    [`${base}/maintenances/daily-counts?month=${month}`, ''],
    [`/api/status/${slug}/charts`, 'charts of every monitor'],
    [`/api/status-page/${slug}/minute-data`, ''],
    ...(monitorId === null
      ? []
      : [
          [
            `${base}/monitors/${String(monitorId)}/availability?period=30d`,
            'uptime, MTBF and MTTR of a monitor',
          ] as const,
        ]),
    [`${base}/sla`, "this month's SLA report (&format=csv for a spreadsheet)"],
    [`/s/${slug}/sla/${month}`, 'the printable SLA report'],
    [`/api/embed/status?slug=${slug}&inc=1&rtm=60&upd=7`, 'embed status with sparklines'],
    [`/api/embed/markdown?slug=${slug}`, 'badge and widget snippets'],
    [`/badge/${slug}.svg`, 'the badge'],
    ...general,
  ];
};

export const OPERATOR_PATHS = ['/v1/projection-status', '/metrics', '/readyz'] as const;

const operatorOrigin = (config: Config): string =>
  `http://${browsableHost(config.ingestHost)}:${String(config.ingestPort)}`;

export type WelcomeFacts = Readonly<{
  page: WelcomePage | null;
  /** The candidates that answered, in order. */
  tries: readonly Try[];
  operatorPaths: readonly string[];
  /** How many processes serve the public API (WEB_CONCURRENCY). */
  apiProcesses?: number;
  /** The servers `npm start` runs itself, one line each, then how to use real ones. */
  servers?: readonly string[];
}>;

const headline = (page: WelcomePage | null): string => {
  if (page === null)
    return 'Status page API is running. The log has no page yet: append events (below) to create one.';
  if (page.isDemo)
    return 'Status page API is running, with the demo page "demo" (6 monitors, 90 days of history, a live agent).';
  return `Status page API is running. URLs for the page "${page.slug}":`;
};

export const welcomeText = (config: Config, facts: WelcomeFacts): string => {
  const base = config.publicBaseUrl;
  const operator = operatorOrigin(config);
  const tries = facts.tries.map(([path, note]) => [`${base}${path}`, note] as const);
  const width = Math.max(0, ...tries.filter(([, note]) => note).map(([url]) => url.length));
  const lines = [
    '',
    headline(facts.page),
    ...(facts.page === null
      ? ['Each page will be at /s/<slug> once its page.configured event is appended.']
      : []),
    ...((facts.apiProcesses ?? 1) > 1
      ? [
          `The public API runs in ${String(facts.apiProcesses)} processes (WEB_CONCURRENCY; 1 for a single process).`,
        ]
      : []),
    ...(facts.servers?.length
      ? ['', 'Servers run by npm start (nothing answered at their defaults):', ...facts.servers]
      : []),
    '',
    'Try:',
    ...tries.map(([url, note]) => (note ? `  ${url.padEnd(width)}  ${note}` : `  ${url}`)),
    '',
    ...(facts.operatorPaths.length > 0
      ? [
          `Operator endpoints (${operator.replace('http://', '')}, not on the public port):`,
          ...facts.operatorPaths.map((path) => `  ${operator}${path}`),
          '',
        ]
      : []),
    config.ingestToken
      ? 'Ingest: POST /v1/events on the operator listener with "Authorization: Bearer $INGEST_TOKEN" (a JSON array or NDJSON), or npm run ingest -- <file.ndjson>.'
      : 'Ingest over HTTP is disabled: set INGEST_TOKEN (16+ characters) to accept POST /v1/events on the operator listener. npm run ingest -- <file.ndjson> works without it.',
    '',
  ];
  return lines.join('\n');
};
