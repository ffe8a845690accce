// Path and query schemas of the eleven endpoints: the routes validate with them and openapi.ts
// documents them. Integers are accepted only in canonical decimal form (/^[1-9][0-9]*$/): "01",
// "1.0", "+1", "1e3" and " 1" are invalid. A repeated parameter arrives as an array: invalid too.
import { MonitorId, PageSlug } from '../events/common.ts';
import { z } from '../contract/zod.ts';
import { LOCALES } from '../../projections/locale/locales.ts';

const canonicalInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]*$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .openapi({ type: 'integer', minimum: min, maximum: max });

export const Slug = PageSlug.openapi({ description: 'Status page slug', example: 'acme' });
export const SlugPath = z.object({ slug: Slug });

export const MonitorIdPath = z
  .string()
  .regex(/^[1-9][0-9]*$/)
  .transform(Number)
  .pipe(MonitorId)
  .openapi({ type: 'integer', minimum: 1, description: 'Monitor identifier' });
export const AvailabilityPath = z.object({ slug: Slug, monitorID: MonitorIdPath });

/** The language of a human-readable answer (status page, badge, SLA report); src/locale/langParam.ts reads it. */
export const LangQuery = z.object({
  lang: z.enum(LOCALES).optional().openapi({
    description:
      "The language, spelled exactly so; absent: the page's own (page.configured locale). Any other value: 400",
  }),
});

/** Only a single string counts as a token: a repeated auth_token is no token at all. */
export const AuthTokenQuery = z.object({
  auth_token: z.string().optional().openapi({ description: 'Access token of a private status page' }),
});

const page = canonicalInt(1, Number.MAX_SAFE_INTEGER)
  .optional()
  .default('1')
  .openapi({ description: 'Page number, default 1; past the end: empty page' });
const pageSize = canonicalInt(1, 100)
  .optional()
  .default('20')
  .openapi({ description: 'Items per page, default 20' });

export const IncidentListQuery = z.object({ page, page_size: pageSize });
export type IncidentListQuery = z.infer<typeof IncidentListQuery>;

const maintenanceStatuses = ['scheduled', 'in_progress', 'completed', 'cancelled'] as const;
export const MaintenanceListQuery = z.object({
  page,
  page_size: pageSize,
  status: z.enum([...maintenanceStatuses, 'all']).default('all'),
});
export type MaintenanceListQuery = z.infer<typeof MaintenanceListQuery>;

export const MonthQuery = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .openapi({ description: 'A month, YYYY-MM', example: '2026-11', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }),
});

const periods = ['24h', '7d', '30d', '90d', '1y'] as const;
export const PeriodQuery = z.object({ period: z.enum(periods).default('30d') });

export const EmbedSlugQuery = z.object({
  slug: z.string().min(1).openapi({ description: 'Status page slug', example: 'acme' }),
});
export const EmbedStatusQuery = EmbedSlugQuery.extend({
  inc: z.literal('1').optional().openapi({ description: 'Include active incidents (only value: 1)' }),
  rtm: canonicalInt(1, 240).optional().openapi({ description: 'Response-time sparkline: last N minutes' }),
  upd: canonicalInt(1, 30).optional().openapi({ description: 'Uptime sparkline: last N days' }),
});
export type EmbedStatusQuery = z.infer<typeof EmbedStatusQuery>;

export const BadgePath = z.object({
  file: z
    .string()
    .regex(/\.svg$/)
    .openapi({ description: '`{slug}.svg`', example: 'acme.svg' }),
});
