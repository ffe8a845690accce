// Every error both listeners answer: one row per error of read-api.md, decisions.md and
// ingest.md, one body shape ({"error": "<text>"}, plus "details" for invalid events), always
// Content-Type JSON and Cache-Control no-store.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '../shared/logger.ts';
import { isStoreOutage } from './storeOutage.ts';

type ErrorRow = { status: number; message: string; retryAfter?: true };

const apiErrors = {
  not_found: { status: 404, message: 'not found' },
  status_page_not_found: { status: 404, message: 'status page not found' },
  invalid_parameters: { status: 400, message: 'invalid parameters' },
  invalid_period: { status: 400, message: 'invalid period' },
  missing_slug: { status: 400, message: 'missing slug' },
  auth_required: { status: 401, message: 'auth required' },
  forbidden: { status: 403, message: 'forbidden' },
  page_blocked: { status: 403, message: 'status page is blocked' },
  embeds_not_in_plan: { status: 403, message: 'embeds not available in your plan' },
  plan_inc_rtm_upd: { status: 403, message: 'incidents and sparklines require Growth plan or higher' },
  markdown_not_in_plan: { status: 403, message: 'Markdown API requires Growth plan or higher' },
  service_unavailable: { status: 503, message: 'service unavailable', retryAfter: true },
  too_many_requests: { status: 429, message: 'too many requests', retryAfter: true },
  internal: { status: 500, message: 'internal error' },
  // The public sign-up: POST /api/status-pages/{slug}/subscribers (docs/notifications.md).
  invalid_email: { status: 400, message: 'invalid email' },
  unknown_components: { status: 400, message: 'unknown components' },
  // The operator listener: POST /v1/events (ingest.md).
  ingest_disabled: { status: 503, message: 'ingest disabled' }, // until INGEST_TOKEN is set: no retry
  unauthorized: { status: 401, message: 'unauthorized' },
  unsupported_content_type: { status: 415, message: 'unsupported content type' },
  payload_too_large: { status: 413, message: 'payload too large' },
  too_many_events: { status: 413, message: 'too many events' },
  malformed_body: { status: 400, message: 'malformed body' },
  invalid_events: { status: 400, message: 'invalid events' },
  // The operator listener: the integrations' endpoints (docs/integrations.md).
  invalid_payload: { status: 400, message: 'invalid payload' },
  not_a_push_monitor: { status: 409, message: 'not a push monitor' },
  // The operator listener: subscribers (notifications.md).
  subscriber_exists: { status: 409, message: 'subscriber exists' },
  not_a_webhook_subscriber: { status: 409, message: 'not a webhook subscriber' },
  // The operator listener: GET /v1/domains/check (docs/deploy.md).
  missing_domain: { status: 400, message: 'missing domain' },
} as const satisfies Record<string, ErrorRow>;

export type ApiErrorCode = keyof typeof apiErrors;

/** Every (status, text) pair the API can answer with; the OpenAPI document lists them. */
export const apiErrorTable: Readonly<Record<ApiErrorCode, ErrorRow>> = apiErrors;

export const RETRY_AFTER_SECONDS = '5';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly status: number;
  /** Seconds for Retry-After, when not the default. */
  readonly retryAfter: number | undefined;
  constructor(code: ApiErrorCode, options?: ErrorOptions & { retryAfter?: number }) {
    super(apiErrors[code].message, options);
    this.code = code;
    this.status = apiErrors[code].status;
    this.retryAfter = options?.retryAfter;
  }
}

/** Sends the row of `code`; `details` (invalid events) goes in the body after the text. */
export const sendError = (
  res: Response,
  code: ApiErrorCode,
  details?: readonly unknown[],
  retryAfter?: number,
): void => {
  const { status, message, ...row } = apiErrorTable[code];
  res.status(status).set({
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...(row.retryAfter ? { 'Retry-After': String(retryAfter ?? RETRY_AFTER_SECONDS) } : {}),
  });
  res.end(JSON.stringify({ error: message, details }));
};

const statusOf = (err: unknown): number | undefined => {
  if (typeof err !== 'object' || err === null) return undefined;
  const status =
    (err as { status?: unknown; statusCode?: unknown }).status ??
    (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
};

/** A path parameter Express could not percent-decode: the thing it names cannot exist. */
export const isUndecodablePath = (err: unknown): boolean => err instanceof URIError;

export const notFoundHandler: RequestHandler = (_req, res) => {
  sendError(res, 'not_found');
};

/** The answer for an error, or null when it is unexpected (a bug: 500). */
export const errorCodeOf = (err: unknown): ApiErrorCode | null => {
  if (err instanceof ApiError) return err.code;
  if (isStoreOutage(err)) return 'service_unavailable';
  if (isUndecodablePath(err)) return 'not_found';
  // Express's own client errors (bad URL, bad body) are the client's fault, never a 500.
  const status = statusOf(err);
  if (status === 404) return 'not_found';
  if (status !== undefined && status >= 400 && status < 500) return 'invalid_parameters';
  return null;
};

export const errorHandler =
  (log: Logger): ErrorRequestHandler =>
  (err, _req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const code = errorCodeOf(err);
    if (code === null) {
      log.error({ err }, 'unhandled request error'); // only what is really unexpected
    } else if (isStoreOutage(err)) {
      log.warn({ err: (err as Error).message }, 'read models unreachable');
    }
    sendError(res, code ?? 'internal', undefined, err instanceof ApiError ? err.retryAfter : undefined);
  };
