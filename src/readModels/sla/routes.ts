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
import { translate } from '../../../projections/locale/catalogues.ts';
import { DEFAULT_LOCALE, LANGUAGE_NAMES, LOCALES, type Locale } from '../../../projections/locale/locales.ts';
import { requestedLocale } from '../../locale/langParam.ts';

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

const tokenForm = (slug: string, rejected: boolean, locale: Locale, explicit: boolean): string => {
  const { t } = translate(locale);
  const text = (key: Parameters<typeof t>[0], params?: Parameters<typeof t>[1]) => escapeHtml(t(key, params));
  // The form replaces the query: a language chosen in the address goes with it.
  const lang = explicit ? `<input type="hidden" name="lang" value="${locale}">` : '';
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text('doc.privateTitle')}</title><link rel="icon" href="data:,">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}input{font:inherit;padding:.3rem;width:100%}button{font:inherit;margin-top:.6rem}.error{color:#a40000}</style></head>
<body><main><h1>${text('doc.privateTitle')}</h1>
<p>${text('report.private', { slug })}</p>
${rejected ? `<p class="error" role="alert">${text('auth.rejected')}</p>` : ''}
<form method="get"><label for="auth_token">${text('auth.label')}</label>
<input id="auth_token" name="auth_token" type="password" autocomplete="current-password" required>${lang}
<button type="submit">${text('report.show')}</button></form></main></body></html>
`;
};

/** A short page of one heading (and its links), in the report's language. */
const notice = (locale: Locale, title: string, extra = ''): string =>
  `<!doctype html><html lang="${locale}"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1>${extra}\n`;

/** 400 for a `lang` there is not: the report's languages, as links. */
const languageList = (): string =>
  `<ul>${LOCALES.map((l) => `<li><a href="?lang=${l}" hreflang="${l}" lang="${l}">${escapeHtml(LANGUAGE_NAMES[l])}</a></li>`).join('')}</ul>`;

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
  (title: string, slug: string, locale: Locale, explicit: boolean) =>
  (rendered: RenderedReport): string =>
    reportHtml(JSON.parse(rendered.json) as SlaReport, {
      title,
      csvUrl: `/api/status-pages/${slug}/sla?period=${rendered.period.label}&format=csv`,
      statusUrl: explicit ? `/s/${slug}?lang=${locale}` : `/s/${slug}`,
      locale,
    });

const unavailable = (res: Response, locale: Locale): void => {
  res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
  sendHtml(res, 503, notice(locale, translate(locale).t('report.preparing')));
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
        const asked = requestedLocale(req, DEFAULT_LOCALE) ?? DEFAULT_LOCALE;
        sendHtml(res, 404, notice(asked, translate(asked).t('error.notFound.title')));
        return;
      }
      const locale = requestedLocale(req, access.locale);
      if (locale === null) {
        sendHtml(
          res,
          400,
          notice(access.locale, translate(access.locale).t('error.language.title'), languageList()),
        );
        return;
      }
      const explicit = req.query['lang'] !== undefined;
      const isPrivate = access.tokenHash !== null;
      if (isPrivate && !(await tokenAccepted(access, req))) {
        sendHtml(res, 401, tokenForm(slug, requestToken(req) !== undefined, locale, explicit));
        return;
      }
      const ready = readyOf(head);
      if (ready === null) {
        unavailable(res, locale);
        return;
      }
      const servable = servablePeriod(label, ready.current);
      if (servable === null) {
        sendHtml(res, 404, notice(locale, translate(locale).t('report.none')));
        return;
      }
      const title = ('title' in access ? access.title : null) ?? slug;
      const html = await made(deps, sla, page, {
        // Each language (and whether it was asked for, which the status link keeps) is its own variant.
        kind: `sla-html|${locale}|${explicit ? 'asked' : 'page'}`,
        period: servable,
        ready,
        form: htmlOf(title, slug, locale, explicit),
      });
      if (html === null) {
        unavailable(res, locale);
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
