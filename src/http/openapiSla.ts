// The SLA reports in the OpenAPI document (sla-reports.md): the JSON/CSV endpoint and the
// printable report page.
import { SlaPagePath, SlaQuery, SlaReportBody } from '../contract/slaSchemas.ts';
import { z } from '../contract/zod.ts';
import type { Endpoint } from './openapiEndpoints.ts';
import * as req from './schemas.ts';

export const slaEndpoints: readonly Endpoint[] = [
  {
    path: '/api/status-pages/{slug}/sla',
    summary:
      'SLA report of a calendar month, quarter or year in the page time zone, maintenance left out, against the target; ' +
      'format=csv answers text/csv; charset=utf-8 with Content-Disposition: attachment; filename="{slug}-sla-{period}.csv"',
    params: req.SlugPath,
    query: SlaQuery.merge(req.AuthTokenQuery),
    body: SlaReportBody,
    cache:
      'public, max-age=3600 for a complete period, public, max-age=60 for the current one; private, no-store for a private page',
    errors: ['not_found', 'forbidden', 'invalid_period', 'invalid_parameters'],
  },
  {
    path: '/s/{slug}/sla/{period}',
    summary:
      'Printable SLA report (HTML, A4 print stylesheet) of the same figures, linking its CSV; a private page asks for its token (401 with a form); ' +
      "an unknown page or a period without a report gets an HTML 404 page; in the page's language or ?lang= (an unsupported one: HTML 400)",
    params: SlaPagePath,
    query: req.AuthTokenQuery.merge(req.LangQuery),
    body: z.string(),
    contentType: 'text/html; charset=utf-8',
    cache: 'as the JSON report',
    errors: [],
  },
];
