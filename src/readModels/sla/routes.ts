// GET /api/status-pages/{slug}/sla and /s/{slug}/sla/{period}: reports assembled at read time
// (docs/architecture.md, "SLA reports at read time").
import type { Request, Response } from 'express';
import { monthAt, parsePeriod, type Period } from '../../../projections/sla/periods.ts';
import { reportHtml } from '../../../projections/sla/reportHtml.ts';
import type { SlaReport } from '../../../projections/sla/report.ts';
import { reportCsv, type RenderedReport } from '../../../projections/sla/renderReports.ts';
import { ApiError, RETRY_AFTER_SECONDS } from '../../http/errors.ts';
import { admit, availabilityRules, parseSlug, requestToken, type RouteDeps } from '../access/pageGate.ts';
import { cacheFor, readyBody, sendBody } from '../../http/send.ts';
import { escapeHtml } from '../../shared/escapeHtml.ts';
import { MINUTE_MS } from '../../shared/time.ts';
import { NOSNIFF } from '../../statusPage/securityHeaders.ts';
import type { PageAccess } from '../../../projections/access/codec.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import type { SlaHead, SlaReads } from './reads.ts';
import type { Route } from '../../http/routeTable.ts';
import type { EdgeAnswer } from '../../edge/edgeHeaders.ts';
import { pageKeys } from '../../edge/surrogateKeys.ts';

const SLA_COMPLETE_CACHE = 'public, max-age=3600';
const SLA_CURRENT_CACHE = 'public, max-age=60';
const HTML = 'text/html; charset=utf-8';
const CSV = 'text/csv; charset=utf-8';
const FIRST_YEAR = 2000;
const REACH_YEARS = 3;

const lastMonthLabel = (p: Period): string =>
  `${String(p.year)}-${String(p.month + p.months - 1).padStart(2, '0')}`;
const firstMonthLabel = (p: Period): string => `${String(p.year)}-${String(p.month).padStart(2, '0')}`;

/** The period if a report of it can be served in the current month `current`, else null. */
const servablePeriod = (label: string | null, current: string): Period | null => {
  const period = label === null ? null : parsePeriod(label);
  if (period === null) return null;
  const currentYear = Number(current.slice(0, 4));
  if (period.year < Math.max(FIRST_YEAR, currentYear - REACH_YEARS)) return null;
  return firstMonthLabel(period) <= current ? period : null;
};

const single = (value: unknown): string | null | undefined =>
  value === undefined ? null : typeof value === 'string' ? value : undefined;

const isComplete = (period: Period, current: string): boolean => lastMonthLabel(period) < current;

const cacheRule = (period: Period, current: string, isPrivate: boolean): string =>
  cacheFor(isPrivate, isComplete(period, current) ? SLA_COMPLETE_CACHE : SLA_CURRENT_CACHE);

// Reports are rendered after the page's other models, so a purge may reach the edge before the
// report it is about: a minute's lifetime bounds that, for past periods too.
const slaEdge = (slug: string): EdgeAnswer => ({ keys: pageKeys(slug, true), lifetime: 'minute' });

/** The head of a page's reports: the zone, and the current month at the clock's instant. */
type Ready = Readonly<{ zone: string; asOf: number; current: string }>;
const readyOf = (head: SlaHead): Ready | null =>
  head.meta === null || head.asOf === null
    ? null
    : { zone: head.meta.time_zone, asOf: head.asOf, current: monthAt(head.meta.time_zone, head.asOf).label };

/** The cache variant of a report: a complete period's is the same at any instant. */
const variantOf = (kind: string, period: Period, ready: Ready): string =>
  `${kind}|${period.label}|${isComplete(period, ready.current) ? 'complete' : String(ready.asOf)}`;

type Made = Readonly<{ body: Buffer; etag: string }> | null;
const madeSize = (made: Made): number => made?.body.length ?? 0;

/** A report in one form: `kind` names the form (the cache variant), `form` writes it. */
type ReportWanted = Readonly<{
  kind: string;
  period: Period;
  ready: Ready;
  form: (report: RenderedReport) => string;
}>;

/** One report assembled, in one form, kept in the read cache for the minute it is made for. */
const made = (
  { cache }: Pick<RouteDeps, 'cache'>,
  sla: SlaReads,
  page: PageRef,
  wanted: ReportWanted,
): Promise<Made> =>
  cache.get(page, variantOf(wanted.kind, wanted.period, wanted.ready), {
    load: async () => {
      const report = await sla.report(page, wanted.ready.zone, wanted.period, wanted.ready.asOf);
      return report === null ? null : readyBody(wanted.form(report));
    },
    bytes: madeSize,
    ttlMs: MINUTE_MS,
  });

const headOf = (deps: Pick<RouteDeps, 'cache'>, sla: SlaReads, page: PageRef): Promise<SlaHead> =>
  deps.cache.get(page, 'sla', { load: () => sla.head(page), bytes: () => 0 });

/**
 * The answer is remembered (the response memo) only while the head is current: the head names the
 * minute, and a body kept for its minute must not outlive the next one.
 */
const fromHead = (deps: Pick<RouteDeps, 'cache'>, head: SlaHead, body: object) => ({
  from: head,
  settled: deps.cache.isSettled(head) && deps.cache.isSettled(body),
});

export const slaApiRoutes = (deps: RouteDeps, sla: SlaReads): Route[] => [
  {
    path: '/api/status-pages/:slug/sla',
    handle: async (req, res) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const page = await deps.locate(slug);
      const period = single(req.query['period']);
      const format = single(req.query['format']) ?? 'json';
      const known = format === 'json' || format === 'csv';
      const head = await headOf(deps, sla, page);
      const { isPrivate } = await admit(head.access, req, availabilityRules);
      const ready = readyOf(head);
      if (ready === null) throw new ApiError('service_unavailable'); // page known, reports not rendered yet
      const servable = servablePeriod(period === undefined ? '' : (period ?? ready.current), ready.current);
      if (servable === null) throw new ApiError('invalid_period');
      if (!known) throw new ApiError('invalid_parameters');
      const csv = format === 'csv';
      const body = await made(deps, sla, page, {
        kind: csv ? 'sla-csv' : 'sla',
        period: servable,
        ready,
        form: csv ? reportCsv : (r) => r.json,
      });
      if (body === null) throw new ApiError('service_unavailable');
      if (csv)
        res.setHeader('Content-Disposition', `attachment; filename="${slug}-sla-${servable.label}.csv"`);
      sendBody(req, res, {
        ...body,
        cacheControl: cacheRule(servable, ready.current, isPrivate),
        ...(csv ? { contentType: CSV } : {}),
        ...fromHead(deps, head, body),
        edge: slaEdge(slug),
      });
    },
  },
];

const tokenForm = (slug: string, rejected: boolean): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Private status page</title><link rel="icon" href="data:,">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}input{font:inherit;padding:.3rem;width:100%}button{font:inherit;margin-top:.6rem}.error{color:#a40000}</style></head>
<body><main><h1>Private status page</h1>
<p>This SLA report belongs to a private status page (${escapeHtml(slug)}). Enter the access token you were given to see it.</p>
${rejected ? '<p class="error" role="alert">That token was not accepted. Check it and try again.</p>' : ''}
<form method="get"><label for="auth_token">Access token</label>
<input id="auth_token" name="auth_token" type="password" autocomplete="current-password" required>
<button type="submit">Show the report</button></form></main></body></html>
`;

// The report has an inline stylesheet and no script; a private report's token may be in the address.
const reportHeaders = (kind: 'public' | 'private'): Record<string, string> => ({
  'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors ${kind === 'public' ? '*' : "'none'"}`,
  ...NOSNIFF,
  'Referrer-Policy': 'no-referrer',
});

/**
 * A private report, opened with `?auth_token=`, links its CSV with the same token: the shared body
 * has none, and the download would be refused. No-store and no Referer keep it where it was.
 */
const withTokenInCsvLink = (body: Buffer, req: Request): Buffer => {
  const token = req.query['auth_token'];
  if (typeof token !== 'string') return body;
  const html = body.toString('utf8');
  return Buffer.from(
    html.replace('format=csv"', `format=csv&amp;auth_token=${escapeHtml(encodeURIComponent(token))}"`),
  );
};

/** Whether the request's token opens the page (wrong ones count toward the throttle's 429). */
const tokenAccepted = async (access: PageAccess, req: Request): Promise<boolean> => {
  try {
    await admit(access, req, availabilityRules);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === availabilityRules.locked) return false;
    throw error;
  }
};

const sendHtml = (res: Response, status: number, body: string): void => {
  res.status(status).set({ 'Content-Type': HTML, 'Cache-Control': 'no-store', ...reportHeaders('private') });
  res.end(body);
};

/** The report page of an assembled report (its daily entries are only in the JSON). */
const htmlOf =
  (title: string, slug: string) =>
  (rendered: RenderedReport): string =>
    reportHtml(JSON.parse(rendered.json) as SlaReport, {
      title,
      csvUrl: `/api/status-pages/${slug}/sla?period=${rendered.period.label}&format=csv`,
      statusUrl: `/s/${slug}`,
    });

const noReport = '<!doctype html><title>No such report</title><h1>No report for this period</h1>\n';

const unavailable = (res: Response): void => {
  res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
  sendHtml(
    res,
    503,
    '<!doctype html><title>Unavailable</title><h1>The report is being prepared; try again in a few seconds</h1>\n',
  );
};

export const slaPageRoutes = (deps: RouteDeps, sla: SlaReads): Route[] => [
  {
    path: '/s/:slug/sla/:period',
    handle: async (req: Request, res: Response) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const label = String(req.params['period'] ?? '');
      const page = await deps.locate(slug);
      const head = await headOf(deps, sla, page);
      const access = head.access;
      if (access === null || access.state !== 'active') {
        sendHtml(res, 404, '<!doctype html><title>Not found</title><h1>Status page not found</h1>\n');
        return;
      }
      const isPrivate = access.tokenHash !== null;
      if (isPrivate && !(await tokenAccepted(access, req))) {
        sendHtml(res, 401, tokenForm(slug, requestToken(req) !== undefined));
        return;
      }
      const ready = readyOf(head);
      if (ready === null) {
        unavailable(res);
        return;
      }
      const servable = servablePeriod(label, ready.current);
      if (servable === null) {
        sendHtml(res, 404, noReport);
        return;
      }
      const title = ('title' in access ? access.title : null) ?? slug;
      const html = await made(deps, sla, page, {
        kind: 'sla-html',
        period: servable,
        ready,
        form: htmlOf(title, slug),
      });
      if (html === null) {
        unavailable(res);
        return;
      }
      res.set(reportHeaders(isPrivate ? 'private' : 'public'));
      sendBody(req, res, {
        ...html,
        ...(isPrivate ? { body: withTokenInCsvLink(html.body, req) } : {}),
        contentType: HTML,
        cacheControl: cacheRule(servable, ready.current, isPrivate),
        ...fromHead(deps, head, html),
        edge: slaEdge(slug),
      });
    },
  },
];
