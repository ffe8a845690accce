// What every page endpoint does before it reads a model: find the page's keys under the active
// version (503 without one) and apply the precedence of decisions.md, "HTTP": unknown or deleted
// page, then blocked, then token. Plan, monitor and parameter checks follow in the route.
import type { Request } from 'express';
import type { Config } from '../../config.ts';
import type { Plan } from '../../events/page.ts';
import type { PageAccess } from '../../../projections/access/codec.ts';
import type { ActiveVersionReader } from '../../store/control/activeVersionReader.ts';
import { partitionTag } from '../../../projections/store/control/keys.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import type { PageReads } from '../pageReads.ts';
import type { Clock } from '../../shared/clock.ts';
import { tokenMatches } from '../../shared/hashToken.ts';
import { partitionOf } from '../../shared/pageHash.ts';
import { ApiError, type ApiErrorCode } from '../../http/errors.ts';
import type { CachedReads } from '../../http/readCache.ts';
import { AuthTokenQuery, Slug } from '../../http/schemas.ts';
import { THROTTLE_LOCAL, type TokenThrottle } from '../../http/tokenThrottle.ts';

export type PageLocator = (slug: string) => Promise<PageRef>;

export type RouteDeps = Readonly<{
  reads: PageReads;
  locate: PageLocator;
  config: Config;
  cache: CachedReads;
  /** The instant answers assembled when read are computed for (tests pin it). */
  clock: Clock;
}>;

/** @throws ApiError service_unavailable while no model version is active */
export const createPageLocator =
  (readActive: ActiveVersionReader, prefix: string): PageLocator =>
  async (slug) => {
    const active = await readActive();
    if (active === null) throw new ApiError('service_unavailable');
    return { tag: partitionTag(prefix, active.version, partitionOf(slug, active.partitions)), slug };
  };

/** A slug that cannot name a page is an unknown page. @throws ApiError(code) */
export const parseSlug = (raw: unknown, code: ApiErrorCode): string => {
  const slug = Slug.safeParse(raw);
  if (!slug.success) throw new ApiError(code);
  return slug.data;
};

export type AccessRules = Readonly<{ missing: ApiErrorCode; blocked: ApiErrorCode; locked: ApiErrorCode }>;

export const pageRules: AccessRules = { missing: 'not_found', blocked: 'not_found', locked: 'auth_required' };
export const chartRules: AccessRules = {
  missing: 'status_page_not_found',
  blocked: 'page_blocked',
  locked: 'auth_required',
};
export const availabilityRules: AccessRules = {
  missing: 'not_found',
  blocked: 'not_found',
  locked: 'forbidden',
};

type Admitted = Readonly<{ isPrivate: boolean; plan: Plan; title: string | null }>;

/** A page token, and who presents it and their app's throttle (none for a stream's kept token). */
type Credentials = Readonly<{ token: string | undefined; client?: string; throttle?: TokenThrottle }>;

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

/** A request's page token: `Authorization: Bearer <token>`, else its `auth_token` parameter. */
export const requestToken = (req: Request): string | undefined => {
  const header = req.headers.authorization;
  const bearer = header === undefined ? null : BEARER.exec(header);
  if (bearer !== null) return bearer[1];
  const query = AuthTokenQuery.safeParse(req.query);
  return query.success ? query.data.auth_token : undefined;
};

const credentialsOf = (from: Request | Credentials): Credentials => {
  if (!('headers' in from)) return from;
  const throttle = from.app.locals[THROTTLE_LOCAL] as TokenThrottle | undefined;
  return { token: requestToken(from), client: from.ip ?? '', ...(throttle ? { throttle } : {}) };
};

/**
 * @throws ApiError per `rules` for an unknown, deleted, blocked or locked page; too_many_requests
 * while the client's wrong tokens for the page are throttled (tokenThrottle.ts)
 */
export const admit = (
  access: PageAccess | null,
  from: Request | Credentials,
  rules: AccessRules,
): Admitted => {
  if (access === null || access.state === 'deleted') throw new ApiError(rules.missing);
  if (access.state === 'blocked') throw new ApiError(rules.blocked);
  if (access.tokenHash !== null) {
    const { token, client, throttle } = credentialsOf(from);
    // No token is no guess (a page's shell asks for one): only presented tokens count.
    const key = token === undefined || client === undefined ? null : `${client}\n${access.tokenHash}`;
    const wait = key === null || throttle === undefined ? 0 : throttle.wait(key);
    if (wait > 0) throw new ApiError('too_many_requests', { retryAfter: wait });
    if (!tokenMatches(token, access.tokenHash)) {
      if (key !== null) throttle?.failed(key);
      throw new ApiError(rules.locked);
    }
  }
  return { isPrivate: access.tokenHash !== null, plan: access.plan, title: access.title };
};
