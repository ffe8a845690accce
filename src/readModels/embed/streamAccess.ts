// Whether an open stream may still receive its page: the rules of GET /api/embed/status, applied
// again on every change (a page blocked, deleted, made private or moved to a smaller plan ends it).
import { ApiError, type ApiErrorCode } from '../../http/errors.ts';
import { admitToken, pageRules } from '../access/pageGate.ts';
import type { PageAccess } from '../../../projections/access/codec.ts';
import type { StreamClient } from './streamClient.ts';

export const streamRefusal = (
  access: PageAccess | null,
  { query, token }: Pick<StreamClient, 'query' | 'token'>,
): ApiErrorCode | null => {
  try {
    const { plan } = admitToken(access, token, pageRules);
    if (plan === 'free') return 'embeds_not_in_plan';
    const extras = query.inc !== undefined || query.rtm !== undefined || query.upd !== undefined;
    return plan === 'pro' && extras ? 'plan_inc_rtm_upd' : null;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
};
