// The page a subscription route is about: found under the active read models as every public
// route finds it. The sign-up applies the read API's access rules (a private page needs its
// token); the links in mails carry a signed token instead and need only the page to exist.
import type { Request } from 'express';
import { ApiError } from '../../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../../readModels/access/pageGate.ts';
import { pageUrl } from '../../../projections/render/pageUrl.ts';
import { DEFAULT_LOCALE, type Locale } from '../../../projections/locale/locales.ts';

export type SubscriptionPage = Readonly<{
  slug: string;
  title: string;
  url: string;
  isPrivate: boolean;
  /** The page's own language (page.configured): its mails', and its pages' without `?lang=`. */
  locale: Locale;
}>;

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
  const url = pageUrl({ slug, customDomain: null }, urls);
  return {
    slug,
    title: title ?? slug,
    url,
    isPrivate,
    locale: access !== null && 'locale' in access ? access.locale : DEFAULT_LOCALE,
  };
};
