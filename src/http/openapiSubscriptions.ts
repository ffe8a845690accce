// The feeds, the Statuspage-compatible documents and the live stream in the OpenAPI document.
import { statuspageDocuments } from '../../projections/statuspage/documents.ts';
import { EMBED_STATUS_ERRORS, type Endpoint } from './openapiEndpoints.ts';
import { EmbedStatusQuery, SlugPath, AuthTokenQuery } from './schemas.ts';
import { cacheControl } from './send.ts';
import { z } from '../contract/zod.ts';

const timestamp = z.string().openapi({ format: 'date-time' });
const privateNote = `; ${cacheControl.private} for a private page`;

const SpPage = z.object({
  id: z.string().openapi({ description: 'The slug' }),
  name: z.string(),
  url: z.string().url(),
  time_zone: z.literal('Etc/UTC'),
  updated_at: timestamp,
});
const SpComponent = z
  .object({
    id: z.string().openapi({ description: 'The monitor id' }),
    name: z.string(),
    status: z.enum([
      'operational',
      'degraded_performance',
      'partial_outage',
      'major_outage',
      'under_maintenance',
    ]),
    created_at: timestamp,
    updated_at: timestamp,
    position: z.number().int(),
    description: z.null(),
    showcase: z.boolean(),
    start_date: z.null(),
    group_id: z.null(),
    page_id: z.string(),
    group: z.boolean(),
    only_show_if_degraded: z.boolean(),
  })
  .openapi('StatuspageComponent');
const SpUpdate = z.object({
  id: z.string(),
  status: z.string(),
  body: z.string(),
  incident_id: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  display_at: timestamp,
  affected_components: z.null(),
  deliver_notifications: z.boolean(),
  custom_tweet: z.null(),
  tweet_id: z.null(),
});
const SpIncident = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
    monitoring_at: timestamp.nullable(),
    resolved_at: timestamp.nullable(),
    impact: z.enum(['none', 'minor', 'major', 'critical', 'maintenance']),
    shortlink: z.string().url(),
    started_at: timestamp,
    page_id: z.string(),
    incident_updates: z.array(SpUpdate).openapi({ description: 'Newest first' }),
    components: z.array(SpComponent),
    scheduled_for: timestamp.optional().openapi({ description: 'Maintenances only' }),
    scheduled_until: timestamp.optional().openapi({ description: 'Maintenances only' }),
  })
  .openapi('StatuspageIncident');
const SpStatus = z.object({
  indicator: z.enum(['none', 'minor', 'major', 'critical', 'maintenance']),
  description: z.string(),
});

const documentBodies: Record<(typeof statuspageDocuments)[number], z.ZodTypeAny> = {
  summary: z.object({
    page: SpPage,
    components: z.array(SpComponent),
    incidents: z.array(SpIncident),
    scheduled_maintenances: z.array(SpIncident),
    status: SpStatus,
  }),
  status: z.object({ page: SpPage, status: SpStatus }),
  components: z.object({ page: SpPage, components: z.array(SpComponent) }),
  incidents: z.object({ page: SpPage, incidents: z.array(SpIncident) }),
  'incidents/unresolved': z.object({ page: SpPage, incidents: z.array(SpIncident) }),
  'scheduled-maintenances': z.object({ page: SpPage, scheduled_maintenances: z.array(SpIncident) }),
  'scheduled-maintenances/upcoming': z.object({ page: SpPage, scheduled_maintenances: z.array(SpIncident) }),
  'scheduled-maintenances/active': z.object({ page: SpPage, scheduled_maintenances: z.array(SpIncident) }),
};

const feed = (format: 'atom' | 'rss', contentType: string): Endpoint => ({
  path: `/s/{slug}/feed.${format}`,
  summary: `${format === 'atom' ? 'Atom 1.0' : 'RSS 2.0'} feed of the page's incidents and maintenances (50 most recently updated); a private page answers 404 without its auth_token`,
  params: SlugPath,
  query: AuthTokenQuery,
  body: z.string(),
  contentType,
  cache: `public, max-age=60${privateNote}`,
  headers: { 'Last-Modified': 'The newest entry update; If-Modified-Since is honoured' },
  errors: ['not_found'],
});

export const subscriptionEndpoints: readonly Endpoint[] = [
  feed('atom', 'application/atom+xml; charset=utf-8'),
  feed('rss', 'application/rss+xml; charset=utf-8'),
  ...statuspageDocuments.map((name): Endpoint => ({
    path: `/s/{slug}/api/v2/${name}.json`,
    summary: `Atlassian Statuspage API v2 compatible ${name}.json (mapping in docs/api.md)`,
    params: SlugPath,
    query: AuthTokenQuery,
    body: documentBodies[name],
    cache: `${cacheControl.lists}${privateNote}`,
    errors: ['not_found', 'auth_required'],
  })),
  {
    path: '/api/embed/stream',
    summary:
      'Live embed status (Server-Sent Events): event `status` with the embed status body at once and on every change; `id` only grows, and a reconnection with Last-Event-ID gets no body it already has; a `: heartbeat` comment every 25 s. Same parameters, access rules and errors as /api/embed/status, answered before the stream starts',
    query: EmbedStatusQuery.merge(AuthTokenQuery),
    body: z.string().openapi({
      example:
        'id: 1795348830000\nevent: status\ndata: {"page":"acme","page_url":"…","overall":"operational",…}\n\n',
    }),
    contentType: 'text/event-stream',
    cache: cacheControl.noStore,
    conditional: false,
    errors: [...EMBED_STATUS_ERRORS, 'too_many_requests'], // streams per client address
  },
];
