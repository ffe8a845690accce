// The pages behind the links: sign-up form, confirm (a button: only its POST confirms, so mail
// scanners that follow links confirm nothing), manage (components, unsubscribe) and the RFC 8058
// one-click unsubscribe, a POST that answers 200 and erases the subscriber.
import type { Request, Response } from 'express';
import { parseSlug, type RouteDeps } from '../../readModels/access/pageGate.ts';
import { DEFAULT_LOCALE } from '../../../projections/locale/locales.ts';
import { pageAssets } from '../../statusPage/assets.ts';
import { errorDocument } from '../../statusPage/errorDocument.ts';
import { pageMonitors } from '../../integrations/pageMonitors.ts';
import { confirmUrl, manageUrl, unsubscribeUrl } from './links.ts';
import {
  confirmDocument,
  manageDocument,
  noticeDocument,
  subscribeDocument,
  type PageHead,
} from './pageDocuments.ts';
import { pageHead, sameInLang, withLang } from './pageHead.ts';
import { sendPage } from './sendPage.ts';
import type { SignupDeps } from './signupDeps.ts';
import { parseComponents } from './signupRequest.ts';
import {
  confirmSubscription,
  eraseSubscription,
  findSubscription,
  setComponents,
  type Subscription,
} from './subscriberStore.ts';
import { subscriptionPage, type SubscriptionPage } from './subscriptionPage.ts';
import { pageTexts } from './texts.ts';
import { signToken, verifyToken, type TokenPurpose } from './tokens.ts';

type Handler = (req: Request, res: Response) => Promise<void>;
/** A request whose token named a live subscription, and the head of the page it gets. */
type Found = Readonly<{ req: Request; page: PageHead; sub: Subscription; token: string }>;

const tokenOf = (req: Request): unknown => req.query['token'];
/** Links relative to this origin: the form posts back where the reader is. */
const local = (url: string, baseUrl: string): string => url.slice(baseUrl.length);

export const subscriptionPages = (routeDeps: RouteDeps, deps: SignupDeps) => {
  const baseUrl = routeDeps.config.publicBaseUrl;
  const componentNames = async (slug: string) => (await pageMonitors(deps.db, slug)).map((m) => m.name);

  const invalidLink = (res: Response, page: PageHead) => {
    const texts = pageTexts(page.locale);
    sendPage(
      res,
      404,
      noticeDocument(page, texts.invalidLinkTitle, texts.invalidLinkBody, {
        href: withLang(`/s/${page.slug}/subscribe`, page),
        label: texts.subscribeAgain,
      }),
    );
  };

  /** The page's head in the language asked for; answers 400 (as the status page) when there is none. */
  const headOr400 = (
    req: Request,
    res: Response,
    page: Pick<SubscriptionPage, 'slug' | 'title' | 'locale'>,
  ) => {
    const head = pageHead(req, page);
    if (head === null)
      sendPage(res, 400, errorDocument(400, page.locale, pageAssets(), sameInLang(req, page.slug)));
    return head;
  };

  /** Runs `then` with the subscription the request's token names, or answers the invalid link. */
  const withSubscription =
    (purpose: TokenPurpose, then: (found: Found, res: Response) => Promise<void> | void): Handler =>
    async (req, res) => {
      res.locals['route'] = (req.route as { path: string } | undefined)?.path;
      const page = await subscriptionPage(routeDeps, req, 'exists');
      const head = headOr400(req, res, page);
      if (head === null) return;
      const claims = verifyToken(deps.key, tokenOf(req), purpose, deps.clock());
      const sub =
        claims && claims.page === page.slug
          ? await findSubscription(deps.db, claims.subscriber, page.slug)
          : null;
      if (sub === null) invalidLink(res, head);
      else await then({ req, page: head, sub, token: tokenOf(req) as string }, res);
    };

  const manageToken = (sub: Subscription) =>
    signToken(deps.key, { purpose: 'manage', subscriber: sub.id, page: sub.page }, deps.clock());

  const subscribeForm: Handler = async (req, res) => {
    const found = await subscriptionPage(routeDeps, req, 'admit');
    const page = headOr400(req, res, found);
    if (page === null) return;
    // A private page's form posts its token along, as the page's reader already gave it.
    const token =
      typeof req.query['auth_token'] === 'string'
        ? `?auth_token=${encodeURIComponent(req.query['auth_token'])}`
        : '';
    sendPage(
      res,
      200,
      subscribeDocument(page, {
        action: withLang(`/api/status-pages/${page.slug}/subscribers${token}`, page),
        components: await componentNames(page.slug),
      }),
    );
  };

  const confirmForm = withSubscription('confirm', ({ page, token }, res) => {
    sendPage(
      res,
      200,
      confirmDocument(page, withLang(local(confirmUrl(baseUrl, page.slug, token), baseUrl), page)),
    );
  });

  const confirm = withSubscription('confirm', async ({ page, sub }, res) => {
    if (!(await confirmSubscription(deps.db, sub.id, page.slug))) {
      invalidLink(res, page);
      return;
    }
    deps.log.info({ subscriber: sub.id, page: page.slug }, 'email subscriber confirmed');
    const texts = pageTexts(page.locale);
    sendPage(
      res,
      200,
      noticeDocument(page, texts.confirmedTitle, texts.confirmedBody, {
        href: withLang(local(manageUrl(baseUrl, page.slug, manageToken(sub)), baseUrl), page),
        label: texts.manageTitle(page.title),
      }),
    );
  });

  const manageForm = withSubscription('manage', async ({ page, sub, token }, res) => {
    sendPage(
      res,
      200,
      manageDocument(page, {
        action: withLang(local(manageUrl(baseUrl, page.slug, token), baseUrl), page),
        unsubscribe: withLang(local(unsubscribeUrl(baseUrl, page.slug, token), baseUrl), page),
        components: await componentNames(page.slug),
        chosen: sub.components,
      }),
    );
  });

  const manage = withSubscription('manage', async ({ req, page, sub, token }, res) => {
    const known = new Set(await componentNames(page.slug));
    const chosen = parseComponents(req.body).filter((name) => known.has(name));
    await setComponents(deps.db, sub.id, page.slug, chosen);
    const texts = pageTexts(page.locale);
    sendPage(
      res,
      200,
      noticeDocument(page, texts.savedTitle, texts.manageBody, {
        href: withLang(local(manageUrl(baseUrl, page.slug, token), baseUrl), page),
        label: texts.manageTitle(page.title),
      }),
    );
  });

  // The signed token alone decides: a page blocked, deleted or between read models since the mail
  // went out must still let its readers leave (RFC 8058 wants the POST to just work).
  const unsubscribe: Handler = async (req, res) => {
    res.locals['route'] = '/s/:slug/subscription/unsubscribe';
    const slug = parseSlug(req.params['slug'], 'not_found');
    const found = await subscriptionPage(routeDeps, req, 'exists').catch(() => ({
      slug,
      title: slug,
      locale: DEFAULT_LOCALE,
    }));
    const page = headOr400(req, res, found);
    if (page === null) return;
    const claims = verifyToken(deps.key, tokenOf(req), 'manage', deps.clock());
    if (claims === null || claims.page !== slug) {
      invalidLink(res, page);
      return;
    }
    // Already erased is unsubscribed too: a second click (or a mail client's retry) answers 200.
    await eraseSubscription(deps.db, claims.subscriber, slug);
    deps.log.info({ subscriber: claims.subscriber, page: slug }, 'email subscriber unsubscribed');
    const texts = pageTexts(page.locale);
    sendPage(
      res,
      200,
      noticeDocument(page, texts.unsubscribedTitle, texts.unsubscribedBody, {
        href: withLang(`/s/${slug}`, page),
        label: texts.backToPage,
      }),
    );
  };

  return { subscribeForm, confirmForm, confirm, manageForm, manage, unsubscribe };
};
