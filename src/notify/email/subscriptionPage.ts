// The page a subscription route is about: found under the active read models as every public
// route finds it. The sign-up applies the read API's access rules (a private page needs its
// token); the links in mails carry a signed token instead and need only the page to exist.
import type { Request } from 'express';
import { ApiError } from '../../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../../readModels/access/pageGate.ts';
import { pageUrl } from '../../../projections/render/pageUrl.ts';

export type SubscriptionPage = Readonly<{ slug: string; title: string; url: string; isPrivate: boolean }>;

/** @throws ApiError not_found (unknown, deleted or blocked page), auth_required (private page) */
export const subscriptionPage = async (
  deps: RouteDeps,
  req: Request,
  how: 'admit' | 'exists',
): Promise<SubscriptionPage> => {
  const slug = parseSlug(req.params['slug'], 'not_found');
  const access = await deps.reads.access(await deps.locate(slug));
  let title: string | null;
  let isPrivate: boolean;
  if (how === 'admit') {
    ({ title, isPrivate } = await admit(access, req, pageRules));
  } else {
    if (access === null || access.state !== 'active') throw new ApiError('not_found');
    ({ title } = access);
    isPrivate = access.tokenHash !== null;
  }
  const urls = { baseUrl: deps.config.publicBaseUrl, pageUrlTemplate: deps.config.pageUrlTemplate };
  return { slug, title: title ?? slug, url: pageUrl({ slug, customDomain: null }, urls), isPrivate };
};
