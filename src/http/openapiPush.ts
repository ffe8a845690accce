// GET and POST /push/{token} in the OpenAPI document: the public port's one writing endpoint, a
// push monitor's heartbeat (docs/integrations.md).
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

const PushParams = z.object({
  token: z.string().describe('the push token the operator API gave the monitor'),
});
const PushQuery = z.object({
  status: z.enum(['up', 'down', 'degraded']).optional().describe('the check status (default up)'),
  ping: z.string().regex(/^\d+$/).optional().describe('the check response time in ms, 0 … 86400000'),
});
const PushOk = z.object({ ok: z.literal(true) });

export const registerPush = (
  registry: OpenAPIRegistry,
  errors: (
    codes: readonly ('not_found' | 'invalid_parameters' | 'too_many_requests')[],
  ) => Record<number, ResponseConfig>,
): void => {
  for (const method of ['get', 'post'] as const)
    registry.registerPath({
      method,
      path: '/push/{token}',
      summary: 'A push monitor reports in: appends a check at the server clock (one a second per token)',
      request: { params: PushParams, query: PushQuery },
      responses: {
        200: {
          description: 'The check is appended',
          headers: { 'Cache-Control': { schema: { type: 'string' }, description: 'no-store' } },
          content: { 'application/json; charset=utf-8': { schema: PushOk } },
        },
        ...errors(['not_found', 'invalid_parameters', 'too_many_requests']),
      },
    });
};
