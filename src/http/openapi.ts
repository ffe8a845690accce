// The OpenAPI 3.1 document, generated from the zod schemas the routes validate with
// (schemas.ts) and the response schemas (src/contract/responseSchemas.ts). Built once at startup.
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { apiErrorTable, type ApiErrorCode } from './errors.ts';
import { endpoints } from './openapiEndpoints.ts';
import { ErrorBody } from '../contract/responseSchemas.ts';
import { subscriptionEndpoints } from './openapiSubscriptions.ts';
import { slaEndpoints } from './openapiSla.ts';
import { registerPush } from './openapiPush.ts';
import { registerSubscribers } from './openapiSubscribers.ts';
import { registerSignup } from './openapiSignup.ts';

const header = (description: string) => ({ schema: { type: 'string' as const }, description });

const errorResponses = (codes: readonly ApiErrorCode[]): Record<number, ResponseConfig> => {
  const byStatus = new Map<number, string[]>();
  for (const code of [
    ...codes,
    ...(codes.length > 0 ? (['service_unavailable', 'internal'] as const) : []),
  ]) {
    const { status, message } = apiErrorTable[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), message]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, texts]) => [
      status,
      {
        description: texts.map((text) => `"${text}"`).join(' or '),
        headers: {
          'Cache-Control': header('no-store'),
          ...(status === 503 || status === 429 ? { 'Retry-After': header('seconds to wait') } : {}),
        },
        content: {
          'application/json; charset=utf-8': {
            schema: ErrorBody,
            examples: Object.fromEntries(texts.map((text) => [text, { value: { error: text } }])),
          },
        },
      },
    ]),
  );
};

export const buildOpenApiDocument = (baseUrl: string) => {
  const registry = new OpenAPIRegistry();
  for (const e of [...endpoints, ...subscriptionEndpoints, ...slaEndpoints]) {
    registry.registerPath({
      method: 'get',
      path: e.path,
      summary: e.summary,
      request: { ...(e.params ? { params: e.params } : {}), ...(e.query ? { query: e.query } : {}) },
      responses: {
        200: {
          description: 'OK',
          headers: {
            ...(e.conditional === false ? {} : { ETag: header('Strong entity tag') }),
            'Cache-Control': header(e.cache),
            'Access-Control-Allow-Origin': header('*'),
            ...Object.fromEntries(
              Object.entries(e.headers ?? {}).map(([name, text]) => [name, header(text)]),
            ),
          },
          content: { [e.contentType ?? 'application/json; charset=utf-8']: { schema: e.body } },
        },
        ...(e.conditional === false
          ? {}
          : { 304: { description: 'Not modified (If-None-Match matched the ETag); no body' } }),
        ...errorResponses(e.errors),
      },
    });
  }
  registerPush(registry, errorResponses);
  registerSubscribers(registry, errorResponses);
  registerSignup(registry, errorResponses);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Status page read API',
      version: '1.0.0',
      description:
        'Read-only public API of status pages (and push monitors\' heartbeats, /push/{token}). Every error body is {"error": "<text>"}; OPTIONS on any path answers 204 (CORS preflight).',
    },
    servers: [{ url: baseUrl }],
  });
};
