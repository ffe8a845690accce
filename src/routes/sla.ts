// GET /api/status-pages/{slug}/sla (JSON or CSV) and the printable report /s/{slug}/sla/{period}
// (sla-reports.md). Both answer from the stored report of the period; the period is checked
// against the page's zone and current month as the last render saw them, so the request path
// needs no clock and reads no failure.
import type { Request, Response } from 'express';
import { parsePeriod, type Period } from '../../projections/sla/periods.ts';
import { reportHtml } from '../../projections/sla/reportHtml.ts';
import type { SlaReport } from '../../projections/sla/report.ts';
import { ApiError, RETRY_AFTER_SECONDS } from '../http/errors.ts';
import { admit, availabilityRules, parseSlug, requestToken, type RouteDeps } from '../http/pageGate.ts';
import { cacheFor, readyBody, sendBody } from '../http/send.ts';
import { escapeHtml } from '../shared/escapeHtml.ts';
import { NOSNIFF } from '../statusPage/securityHeaders.ts';
import type { PageAccess } from '../models/access/codec.ts';
import type { SlaFormat, SlaRead, SlaReads } from '../models/sla/reads.ts';
import type { Route } from './routeTable.ts';
import type { EdgeAnswer } from '../edge/edgeHeaders.ts';
import { pageKeys } from '../edge/surrogateKeys.ts';

export const SLA_COMPLETE_CACHE = 'public, max-age=3600';
export const SLA_CURRENT_CACHE = 'public, max-age=60';
const HTML = 'text/html; charset=utf-8';
const CSV = 'text/csv; charset=utf-8';
const FIRST_YEAR = 2000;
const REACH_YEARS = 3;

const lastMonthLabel = (p: Period): string =>
  `${String(p.year)}-${String(p.month + p.months - 1).padStart(2, '0')}`;
const firstMonthLabel = (p: Period): string => `${String(p.year)}-${String(p.month).padStart(2, '0')}`;

/** The period if a report of it can be served now (the render's current month), else null. */
export const servablePeriod = (label: string | null, current: string): Period | null => {
  const period = label === null ? null : parsePeriod(label);
  if (period === null) return null;
  const currentYear = Number(current.slice(0, 4));
  if (period.year < Math.max(FIRST_YEAR, currentYear - REACH_YEARS)) return null;
  return firstMonthLabel(period) <= current ? period : null;
};

const single = (value: unknown): string | null | undefined =>
  value === undefined ? null : typeof value === 'string' ? value : undefined;

const cacheRule = (period: Period, current: string, isPrivate: boolean): string =>
  cacheFor(isPrivate, lastMonthLabel(period) < current ? SLA_COMPLETE_CACHE : SLA_CURRENT_CACHE);

// Reports are rendered after the page's other models, so a purge may reach the edge before the
// report it is about: a minute's lifetime bounds that, for past periods too.
const slaEdge = (slug: string): EdgeAnswer => ({ keys: pageKeys(slug, true), lifetime: 'minute' });

const storedSize = (read: SlaRead): number => read.stored?.body.length ?? 0;

export const slaApiRoutes = ({ locate, cache }: RouteDeps, sla: SlaReads): Route[] => [
  {
    path: '/api/status-pages/:slug/sla',
    handle: async (req, res) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const page = await locate(slug);
      const period = single(req.query['period']);
      const format = single(req.query['format']) ?? 'json';
      const known = format === 'json' || format === 'csv';
      const asked: SlaFormat = format === 'csv' ? 'csv' : 'json';
      const read = await cache.get(
        page,
        `sla|${String(period)}|${asked}`,
        () => sla.report(page, period === undefined ? '' : period, asked),
        storedSize,
      );
      const { isPrivate } = admit(read.access, req, availabilityRules);
      if (read.meta === null) throw new ApiError('service_unavailable'); // page known, reports not rendered yet
      const servable = servablePeriod(read.label, read.meta.current);
      if (servable === null) throw new ApiError('invalid_period');
      if (!known) throw new ApiError('invalid_parameters');
      if (read.stored === null) throw new ApiError('service_unavailable');
      if (asked === 'csv')
        res.setHeader('Content-Disposition', `attachment; filename="${slug}-sla-${servable.label}.csv"`);
      sendBody(req, res, {
        ...read.stored,
        cacheControl: cacheRule(servable, read.meta.current, isPrivate),
        ...(asked === 'csv' ? { contentType: CSV } : {}),
        from: read,
        edge: slaEdge(slug),
        settled: cache.isSettled(read),
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
const tokenAccepted = (access: PageAccess, req: Request): boolean => {
  try {
    admit(access, req, availabilityRules);
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

type HtmlRead = SlaRead & Readonly<{ html: Readonly<{ body: Buffer; etag: string }> | null }>;

/** The report page of a stored JSON report, made once per change of the page (the response cache). */
const withHtml = async (read: Promise<SlaRead>, title: string | null, slug: string): Promise<HtmlRead> => {
  const found = await read;
  if (found.stored === null || found.label === null || found.access === null) return { ...found, html: null };
  const report = JSON.parse(found.stored.body.toString('utf8')) as SlaReport;
  const csv = `/api/status-pages/${slug}/sla?period=${found.label}&format=csv`;
  const body = reportHtml(report, {
    title: ('title' in found.access ? found.access.title : null) ?? title ?? slug,
    csvUrl: csv,
    statusUrl: `/s/${slug}`,
  });
  return { ...found, html: readyBody(body) };
};

export const slaPageRoutes = ({ locate, cache }: RouteDeps, sla: SlaReads): Route[] => [
  {
    path: '/s/:slug/sla/:period',
    handle: async (req: Request, res: Response) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const label = String(req.params['period'] ?? '');
      const page = await locate(slug);
      const read = await cache.get(
        page,
        `sla-html|${label}`,
        () => withHtml(sla.report(page, label, 'json'), null, slug),
        (r: HtmlRead) => r.html?.body.length ?? 0,
      );
      const access = read.access;
      if (access === null || access.state !== 'active') {
        sendHtml(res, 404, '<!doctype html><title>Not found</title><h1>Status page not found</h1>\n');
        return;
      }
      const isPrivate = access.tokenHash !== null;
      if (isPrivate && !tokenAccepted(access, req)) {
        sendHtml(res, 401, tokenForm(slug, requestToken(req) !== undefined));
        return;
      }
      const servable = read.meta === null ? null : servablePeriod(read.label, read.meta.current);
      if (read.meta === null || read.html === null) {
        if (servable === null && read.meta !== null) {
          sendHtml(
            res,
            404,
            '<!doctype html><title>No such report</title><h1>No report for this period</h1>\n',
          );
          return;
        }
        res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
        sendHtml(
          res,
          503,
          '<!doctype html><title>Unavailable</title><h1>The report is being prepared; try again in a few seconds</h1>\n',
        );
        return;
      }
      if (servable === null) {
        sendHtml(
          res,
          404,
          '<!doctype html><title>No such report</title><h1>No report for this period</h1>\n',
        );
        return;
      }
      res.set(reportHeaders(isPrivate ? 'private' : 'public'));
      sendBody(req, res, {
        ...read.html,
        ...(isPrivate ? { body: withTokenInCsvLink(read.html.body, req) } : {}),
        contentType: HTML,
        cacheControl: cacheRule(servable, read.meta.current, isPrivate),
        from: read,
        edge: slaEdge(slug),
        settled: cache.isSettled(read),
      });
    },
  },
];
