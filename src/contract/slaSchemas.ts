// The SLA report body (sla-reports.md, "Endpoint"), for the OpenAPI document and the contract test.
import { z } from './zod.ts';

const SlaDaily = z
  .object({
    date: z.string().openapi({ description: 'Local day (YYYY-MM-DD) in the page time zone' }),
    total_seconds: z
      .number()
      .int()
      .openapi({ description: '86400, or 82800/90000 on DST days; the current day up to as_of' }),
    excluded_seconds: z.number().int(),
    downtime_seconds: z.number().int(),
    uptime_percentage: z.number(),
  })
  .strict();

const SlaMonitor = z
  .object({
    monitor_id: z.number().int(),
    monitor_name: z.string(),
    sla_target: z.number(),
    total_seconds: z.number().int(),
    excluded_seconds: z
      .number()
      .int()
      .openapi({ description: 'Maintenance time left out (when exclude_maintenance)' }),
    downtime_seconds: z.number().int(),
    uptime_percentage: z
      .number()
      .openapi({ description: '100 × (counted − down) ÷ counted, 3 decimals, half up' }),
    incident_count: z.number().int().openapi({ description: 'Failures with down time inside counted time' }),
    mtbf_seconds: z.number().int(),
    mttr_seconds: z.number().int(),
    longest_outage_seconds: z.number().int(),
    error_budget_seconds: z.number().int(),
    error_budget_remaining_seconds: z.number().int().openapi({ description: 'Negative when overspent' }),
    met: z.boolean(),
    daily: z.array(SlaDaily),
  })
  .strict();

export const SlaReportBody = z
  .object({
    page: z.string(),
    period: z.string().openapi({ description: 'YYYY-MM, YYYY-Qn or YYYY' }),
    time_zone: z.string(),
    start: z.string(),
    end: z.string(),
    complete: z.boolean(),
    as_of: z.string(),
    exclude_maintenance: z.boolean(),
    met_all: z.boolean(),
    monitors: z.array(SlaMonitor),
  })
  .strict()
  .openapi('SlaReport');

export const SlaQuery = z.object({
  period: z.string().optional().openapi({
    description:
      'YYYY-MM, YYYY-Qn or YYYY in the page time zone; default the current local month. Reports reach back to January three years before the current year',
    example: '2026-10',
  }),
  format: z
    .enum(['json', 'csv'])
    .default('json')
    .openapi({ description: 'csv: one row per monitor, RFC 4180' }),
});

export const SlaPagePath = z.object({
  slug: z.string().openapi({ description: 'Status page slug' }),
  period: z.string().openapi({ description: 'YYYY-MM, YYYY-Qn or YYYY', example: '2026-10' }),
});
