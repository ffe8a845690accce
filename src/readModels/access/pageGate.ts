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
import { clientKey } from '../../http/clientKey.ts';

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

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

/** A request's page token: `Authorization: Bearer <token>`, else its `auth_token` parameter. */
export const requestToken = (req: Request): string | undefined => {
  const header = req.headers.authorization;
  const bearer = header === undefined ? null : BEARER.exec(header);
  if (bearer !== null) return bearer[1];
  const query = AuthTokenQuery.safeParse(req.query);
  return query.success ? query.data.auth_token : undefined;
};

/** A page that exists and is not blocked: what the token rule and the route need of it. */
type OpenPage = Readonly<{ tokenHash: string | null; plan: Plan; title: string | null }>;

/** @throws ApiError per `rules` for an unknown, deleted or blocked page */
const existing = (access: PageAccess | null, rules: AccessRules): OpenPage => {
  if (access === null || access.state === 'deleted') throw new ApiError(rules.missing);
  if (access.state === 'blocked') throw new ApiError(rules.blocked);
  return access;
};

const admitted = ({ tokenHash, plan, title }: OpenPage): Admitted => ({
  isPrivate: tokenHash !== null,
  plan,
  title,
});

/**
 * The rules for a token already checked once (an open stream's, kept): no throttle.
 * @throws ApiError per `rules` for an unknown, deleted, blocked or locked page
 */
export const admitToken = (
  access: PageAccess | null,
  token: string | undefined,
  rules: AccessRules,
): Admitted => {
  const page = existing(access, rules);
  if (page.tokenHash !== null && !tokenMatches(token, page.tokenHash)) throw new ApiError(rules.locked);
  return admitted(page);
};

/**
 * The rules for a request; the tokens it presents for a private page go through the app's
 * throttle (tokenThrottle.ts), per client (clientKey.ts).
 * @throws ApiError per `rules` for an unknown, deleted, blocked or locked page; too_many_requests
 * while the client's wrong tokens for the page fill the window
 */
export const admit = async (
  access: PageAccess | null,
  req: Request,
  rules: AccessRules,
): Promise<Admitted> => {
  const page = existing(access, rules);
  if (page.tokenHash === null) return admitted(page);
  const token = requestToken(req);
  const matches = tokenMatches(token, page.tokenHash);
  const throttle = req.app.locals[THROTTLE_LOCAL] as TokenThrottle | undefined;
  // No token is no guess (a page's shell asks for one): only presented tokens count.
  if (token !== undefined && throttle !== undefined)
    await throttle.attempt(clientKey(req.ip), page.tokenHash, !matches);
  if (!matches) throw new ApiError(rules.locked);
  return admitted(page);
};
