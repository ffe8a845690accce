// POST /api/status-pages/{slug}/subscribers in the OpenAPI document: the public email sign-up
// (docs/notifications.md, "Email subscribers"). Listed always; 404 where no mail transport is set.
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { ApiErrorCode } from './errors.ts';

const SignupParams = z.object({ slug: z.string().describe('the page') });
const SignupBody = z.object({
  email: z.string().describe('the address to confirm; 254 characters at most'),
  components: z.array(z.string()).optional().describe('monitor names of the page; none: all'),
});
const SignupAccepted = z.object({ status: z.literal('confirmation sent') });

export const registerSignup = (
  registry: OpenAPIRegistry,
  errors: (codes: readonly ApiErrorCode[]) => Record<number, ResponseConfig>,
): void => {
  registry.registerPath({
    method: 'post',
    path: '/api/status-pages/{slug}/subscribers',
    summary:
      'Subscribe an address to the page by email (double opt-in): the same answer whether or not it was known',
    request: {
      params: SignupParams,
      body: {
        content: {
          'application/json': { schema: SignupBody },
          'application/x-www-form-urlencoded': { schema: SignupBody },
        },
      },
    },
    responses: {
      202: {
        description: 'A confirmation (or, for a confirmed address, its manage link) is mailed',
        headers: { 'Cache-Control': { schema: { type: 'string' }, description: 'no-store' } },
        content: { 'application/json; charset=utf-8': { schema: SignupAccepted } },
      },
      ...errors(['invalid_email', 'unknown_components', 'auth_required', 'not_found', 'too_many_requests']),
    },
  });
};
