// The operator API for subscribers (notifications.md) in the OpenAPI document. These paths are
// served by the operator listener (INGEST_HOST:INGEST_PORT), behind `Authorization: Bearer
// <INGEST_TOKEN>`, not by the public port.
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../contract/zod.ts';
import type { ApiErrorCode } from './errors.ts';

const timestamp = z.string().openapi({ format: 'date-time' });
const Slug = z.object({ slug: z.string() });
const SlugAndId = z.object({ slug: z.string(), id: z.string().describe('sub_ + 22 base64url characters') });

// What src/notify/operator/subscriberInput.ts accepts, described here: src/http imports nothing of src/notify.
const SubscriberInput = z.object({
  channel: z.enum(['webhook', 'slack', 'teams', 'discord', 'email']),
  url: z.string().url().optional().describe('https:// — for webhook, slack, teams, discord'),
  email: z.string().email().optional().describe('for email'),
  components: z
    .array(z.string())
    .max(100)
    .optional()
    .describe('monitor names of the page (default: the whole page)'),
  monitor_states: z.boolean().optional().describe('monitor states too (default false; never for email)'),
  format: z.enum(['native', 'statuspage']).optional().describe('webhooks only (default native)'),
});
const Created = z.object({
  id: z.string(),
  secret: z.string().optional().describe('webhooks only: whsec_ + base64, shown this once'),
});
const Subscriber = z
  .object({
    id: z.string(),
    channel: z.enum(['email', 'webhook', 'slack', 'teams', 'discord']),
    target_hint: z.string().describe("the URL's host or the address's domain, never the whole target"),
    components: z.array(z.string()),
    monitor_states: z.boolean(),
    format: z.enum(['native', 'statuspage']).optional().describe('webhooks only'),
    origin: z.enum(['public', 'operator']),
    state: z.enum(['pending', 'active', 'quarantined']),
    created_at: timestamp,
    confirmed_at: timestamp.nullable(),
    quarantined_at: timestamp.nullable(),
  })
  .openapi('Subscriber');
const Delivery = z.object({
  message_id: z.string().describe('the webhook-id / Message-ID, the same on every retry'),
  event: z.string(),
  attempted_at: timestamp,
  outcome: z.enum(['delivered', 'retry', 'gone', 'rejected']),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
});

const AUTH: readonly ApiErrorCode[] = ['unauthorized', 'ingest_disabled', 'status_page_not_found'];
const noStore = { 'Cache-Control': { schema: { type: 'string' as const }, description: 'no-store' } };
const json = (schema: z.ZodTypeAny) => ({ 'application/json; charset=utf-8': { schema } });
const OPERATOR = [{ url: 'http://127.0.0.1:3001', description: 'the operator listener' }];

export const registerSubscribers = (
  registry: OpenAPIRegistry,
  errors: (codes: readonly ApiErrorCode[]) => Record<number, ResponseConfig>,
): void => {
  type Entry = Readonly<{
    method: 'get' | 'post' | 'delete';
    route: string;
    summary: string;
    ok: Record<number, ResponseConfig>;
    extra: readonly ApiErrorCode[];
    body?: z.ZodTypeAny;
  }>;
  const path = ({ method, route, summary, ok, extra, body }: Entry) =>
    registry.registerPath({
      method,
      path: `/v1/pages/{slug}/subscribers${route}`,
      summary,
      servers: OPERATOR,
      request: {
        params: route === '' ? Slug : SlugAndId,
        ...(body ? { body: { content: json(body) } } : {}),
      },
      responses: { ...ok, ...errors([...AUTH, ...extra]) },
    });
  const ok = (status: number, schema?: z.ZodTypeAny): Record<number, ResponseConfig> => ({
    [status]: {
      description: status === 201 ? 'Created' : 'OK',
      headers: noStore,
      ...(schema ? { content: json(schema) } : {}),
    },
  });
  path({
    method: 'post',
    route: '',
    summary: 'Adds an operator-managed subscriber, active at once',
    ok: ok(201, Created),
    extra: ['invalid_payload', 'malformed_body', 'payload_too_large', 'subscriber_exists'],
    body: SubscriberInput,
  });
  path({
    method: 'get',
    route: '',
    summary: "The page's subscribers, without secrets or targets",
    ok: ok(200, z.object({ subscribers: z.array(Subscriber) })),
    extra: [],
  });
  path({
    method: 'delete',
    route: '/{id}',
    summary: 'Erases a subscriber with its secrets, messages and delivery log',
    ok: { 204: { description: 'Erased' } },
    extra: ['not_found'],
  });
  path({
    method: 'post',
    route: '/{id}/rotate-secret',
    summary: 'A new webhook signing secret; the old one keeps signing for 24 h',
    ok: ok(200, Created.required()),
    extra: ['not_found', 'not_a_webhook_subscriber'],
  });
  path({
    method: 'get',
    route: '/{id}/deliveries',
    summary: 'The last 100 delivery attempts, newest first',
    ok: ok(200, z.object({ deliveries: z.array(Delivery) })),
    extra: ['not_found'],
  });
  path({
    method: 'post',
    route: '/{id}/enable',
    summary: 'Makes a quarantined subscriber active again',
    ok: ok(200, Subscriber),
    extra: ['not_found'],
  });
};
