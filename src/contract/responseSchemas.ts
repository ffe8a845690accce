// The response bodies of read-api.md, defined once: the OpenAPI document and the render functions'
// types come from these schemas.
import { z } from './zod.ts';

const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00Z' });
const date = z.string().openapi({ format: 'date', example: '2026-11-22' });
const overall = z
  .enum(['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'])
  .openapi('OverallStatus');
const incidentState = z.enum(['investigating', 'identified', 'monitoring', 'resolved']);

export const ErrorBody = z.object({ error: z.string().openapi({ example: 'not found' }) }).openapi('Error');

const Pagination = {
  page: z.number().int(),
  page_size: z.number().int(),
  total_pages: z.number().int().openapi({ description: 'ceil(total_items ÷ page_size); 0 when empty' }),
  total_items: z.number().int(),
};

export const Incident = z
  .object({
    id: z.string(),
    title: z.string(),
    state: incidentState,
    started_at: timestamp,
    resolved_at: timestamp.optional().openapi({ description: 'Only on a resolved incident' }),
    components: z.array(z.string()),
    updates: z.array(z.object({ status: incidentState, message: z.string(), created_at: timestamp })),
  })
  .openapi('Incident');
export type Incident = z.infer<typeof Incident>;

export const Maintenance = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    status: z.enum(['scheduled', 'in_progress', 'completed', 'cancelled']),
    scheduled_start: timestamp,
    scheduled_end: timestamp,
    components: z.array(z.string()),
    created_at: timestamp,
  })
  .openapi('Maintenance');
export type Maintenance = z.infer<typeof Maintenance>;

export const IncidentList = z.object({ incidents: z.array(Incident), ...Pagination }).openapi('IncidentList');
export const MaintenanceList = z
  .object({ maintenances: z.array(Maintenance), ...Pagination })
  .openapi('MaintenanceList');
const month = z.string().openapi({ example: '2026-11' });
export const IncidentMonth = z
  .object({ incidents: z.array(Incident), month, total_items: z.number().int() })
  .openapi('IncidentMonth');
export const MaintenanceMonth = z
  .object({ maintenances: z.array(Maintenance), month, total_items: z.number().int() })
  .openapi('MaintenanceMonth');

export const DailyCounts = z
  .object({
    counts: z.record(z.number().int()).openapi({ description: 'Every day of the month, keys ascending' }),
    start_date: date,
    end_date: date,
  })
  .openapi('DailyCounts');
export type DailyCounts = z.infer<typeof DailyCounts>;

export const HourlyPoint = z.object({
  hour: z.number().int().min(0).max(23),
  avg_response: z.number().int(),
  uptime: z.number(),
});
export type HourlyPoint = z.infer<typeof HourlyPoint>;
export const MinutePoint = z.object({
  minute: timestamp,
  response_time: z.number().int(),
  status: z.enum(['up', 'degraded', 'down']),
});

export type MinutePoint = z.infer<typeof MinutePoint>;
export const ChartMonitor = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.enum(['up', 'down', 'degraded']),
  avg_response_time_today: z.number().int(),
  hourly_data: z.array(HourlyPoint),
  minute_data: z.array(MinutePoint),
  yesterday_hourly_data: z.array(HourlyPoint),
});
export type ChartMonitor = z.infer<typeof ChartMonitor>;
export const GlobalDay = z.object({ date, uptime: z.number() });
export type GlobalDay = z.infer<typeof GlobalDay>;

export const Charts = z
  .object({
    monitors: z.array(ChartMonitor),
    overall,
    globalDaily: z.array(GlobalDay),
    timestamp: z.number().int().openapi({ description: 'Unix seconds' }),
  })
  .openapi('Charts');
export type Charts = z.infer<typeof Charts>;

export const MinuteData = z
  .object({ monitors: z.array(z.object({ id: z.number().int(), minute_data: z.array(MinutePoint) })) })
  .openapi('MinuteData');
export type MinuteData = z.infer<typeof MinuteData>;

export const DailyBreakdown = z.object({
  date,
  uptime_percentage: z.number(),
  downtime_seconds: z.number().int(),
});
export type DailyBreakdown = z.infer<typeof DailyBreakdown>;

export const Availability = z
  .object({
    monitor_id: z.number().int(),
    monitor_name: z.string(),
    period: z.enum(['24h', '7d', '30d', '90d', '1y']),
    availability: z.object({
      uptime_percentage: z.number(),
      downtime_seconds: z.number().int(),
      total_seconds: z.number().int(),
      mtbf_seconds: z.number().int(),
      mttr_seconds: z.number().int(),
      incident_count: z.number().int(),
    }),
    daily_breakdown: z.array(DailyBreakdown),
  })
  .openapi('Availability');
export type Availability = z.infer<typeof Availability>;

export const EmbedIncident = z.object({
  id: z.string(),
  title: z.string(),
  state: incidentState,
  started: timestamp,
  component: z.string(),
});
export type EmbedIncident = z.infer<typeof EmbedIncident>;

export const EmbedStatus = z
  .object({
    page: z.string(),
    page_url: z.string().url(),
    overall,
    updated: timestamp,
    incidents: z.array(EmbedIncident),
    rtm: z.array(z.number().int()).optional().openapi({ description: 'With rtm=N: N values, oldest first' }),
    upd: z.array(z.number()).optional().openapi({ description: 'With upd=N: N values, oldest first' }),
    dns_only: z.boolean(),
  })
  .openapi('EmbedStatus');
export type EmbedStatus = z.infer<typeof EmbedStatus>;

export const Snippets = z
  .object({
    status_page_url: z.string().url(),
    badge_markdown: z.string(),
    badge_html: z.string(),
    widget_script: z.string(),
    widget_html: z.string(),
    minimal_md: z.string(),
  })
  .openapi('Snippets');
export type Snippets = z.infer<typeof Snippets>;

export const Health = z.object({ status: z.literal('ok') }).openapi('Health');
