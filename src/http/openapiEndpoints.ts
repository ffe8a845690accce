// The endpoints as the OpenAPI document lists them: which request schemas (the ones the routes
// validate with), which response body, which Cache-Control rule and which errors.
import type { ZodTypeAny } from 'zod';
import type { ApiErrorCode } from './errors.ts';
import * as res from '../contract/responseSchemas.ts';
import * as req from './schemas.ts';
import { cacheControl } from './send.ts';
import { z } from '../contract/zod.ts';

export type Endpoint = Readonly<{
  path: string;
  summary: string;
  params?: z.AnyZodObject;
  query?: z.AnyZodObject;
  body: ZodTypeAny;
  contentType?: string;
  cache: string;
  /** Extra response headers (name → description). */
  headers?: Readonly<Record<string, string>>;
  /** false: no ETag and no 304 (a stream). */
  conditional?: boolean;
  errors: readonly ApiErrorCode[];
}>;

const privateNote = `; ${cacheControl.private} for a private page`;
const lists = `${cacheControl.lists}${privateNote}`;
const pageErrors = ['not_found', 'auth_required', 'invalid_parameters'] as const;
const withToken = (query: z.AnyZodObject = z.object({})) => query.merge(req.AuthTokenQuery);

/** What embed status answers besides 200; its live stream answers the same. */
export const EMBED_STATUS_ERRORS = [
  'missing_slug',
  'invalid_parameters',
  'not_found',
  'auth_required',
  'embeds_not_in_plan',
  'plan_inc_rtm_upd',
] as const;

export const endpoints: readonly Endpoint[] = [
  {
    path: '/api/status-pages/{slug}/incidents',
    summary: 'Incident history, paginated (newest first)',
    params: req.SlugPath,
    query: withToken(req.IncidentListQuery),
    body: res.IncidentList,
    cache: lists,
    errors: pageErrors,
  },
  {
    path: '/api/status-pages/{slug}/incidents/filter',
    summary: 'Incidents started in one month',
    params: req.SlugPath,
    query: withToken(req.MonthQuery),
    body: res.IncidentMonth,
    cache: lists,
    errors: pageErrors,
  },
  {
    path: '/api/status-pages/{slug}/incidents/daily-counts',
    summary: 'Incidents per day of one month',
    params: req.SlugPath,
    query: withToken(req.MonthQuery),
    body: res.DailyCounts,
    cache: lists,
    errors: pageErrors,
  },
  {
    path: '/api/status-pages/{slug}/maintenances',
    summary: 'Maintenance windows, paginated (newest start first)',
    params: req.SlugPath,
    query: withToken(req.MaintenanceListQuery),
    body: res.MaintenanceList,
    cache: lists,
    errors: pageErrors,
  },
  {
    path: '/api/status-pages/{slug}/maintenances/filter',
    summary: 'Maintenances whose window overlaps one month',
    params: req.SlugPath,
    query: withToken(req.MonthQuery),
    body: res.MaintenanceMonth,
    cache: lists,
    errors: pageErrors,
  },
  {
    path: '/api/status-pages/{slug}/maintenances/daily-counts',
    summary: 'Maintenances per day of one month (cancelled ones not counted)',
    params: req.SlugPath,
    query: withToken(req.MonthQuery),
    body: res.DailyCounts,
    cache: lists,
    errors: pageErrors,
  },
  {
    path: '/api/status/{slug}/charts',
    summary: 'Chart data of every monitor of the page',
    params: req.SlugPath,
    query: withToken(),
    body: res.Charts,
    cache: `${cacheControl.noStore}${privateNote}`,
    errors: ['status_page_not_found', 'page_blocked', 'auth_required'],
  },
  {
    path: '/api/status-page/{slug}/minute-data',
    summary: 'Minute-level points of the last hour',
    params: req.SlugPath,
    query: withToken(),
    body: res.MinuteData,
    cache: `${cacheControl.noStore}${privateNote}`,
    errors: ['status_page_not_found', 'page_blocked', 'auth_required'],
  },
  {
    path: '/api/status-pages/{slug}/monitors/{monitorID}/availability',
    summary: 'Uptime, MTBF and MTTR of one monitor',
    params: req.AvailabilityPath,
    query: withToken(req.PeriodQuery),
    body: res.Availability,
    cache: lists,
    errors: ['not_found', 'forbidden', 'invalid_period'],
  },
  {
    path: '/api/embed/status',
    summary: 'Overall status for embeds, with optional incidents and sparklines',
    query: withToken(req.EmbedStatusQuery),
    body: res.EmbedStatus,
    cache: `${cacheControl.embed}${privateNote}`,
    errors: EMBED_STATUS_ERRORS,
  },
  {
    path: '/api/embed/markdown',
    summary: 'Ready-made badge and widget snippets',
    query: withToken(req.EmbedSlugQuery),
    body: res.Snippets,
    cache: `${cacheControl.snippets}${privateNote}`,
    errors: ['missing_slug', 'invalid_parameters', 'not_found', 'auth_required', 'markdown_not_in_plan'],
  },
  {
    path: '/badge/{file}',
    summary:
      'SVG status badge in the page\'s language or ?lang=; every failure is a grey "Status | Unknown" badge (404 unknown, deleted or blocked page; 401 private page; 403 free plan; 400 unsupported lang; 503 models missing)',
    params: req.BadgePath,
    query: withToken(req.LangQuery),
    body: z.string(),
    contentType: 'image/svg+xml; charset=utf-8',
    cache: `${cacheControl.static}${privateNote}; errors no-store`,
    errors: [],
  },
  {
    path: '/static/embed/v1/status.js',
    summary: 'The embeddable status widget script',
    body: z.string(),
    contentType: 'text/javascript; charset=utf-8',
    cache: cacheControl.static,
    errors: [],
  },
  {
    path: '/s/{slug}',
    summary:
      "The public status page (the default page_url): an HTML document built from this API, in the page's language or ?lang=; " +
      'an unknown, deleted or blocked page gets an HTML 404 page, an unsupported lang an HTML 400 page listing the languages',
    params: req.SlugPath,
    query: req.LangQuery,
    body: z.string(),
    contentType: 'text/html; charset=utf-8',
    cache: 'public, max-age=60; private, no-store for a private page',
    errors: [],
  },
  { path: '/healthz', summary: 'Liveness probe', body: res.Health, cache: cacheControl.noStore, errors: [] },
  {
    path: '/openapi.json',
    summary: 'This document',
    body: z.object({}).passthrough(),
    cache: cacheControl.static,
    errors: [],
  },
];
