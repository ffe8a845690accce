// POST /api/status-pages/{slug}/subscribers: the public sign-up (docs/notifications.md, "Email
// subscribers"). Every well-formed address takes the same path, known or not: the counters, one
// upsert, the answer, then the mail (after the answer, so its time never tells anything).
import type { Request, Response } from 'express';
import { ApiError, sendError } from '../../http/errors.ts';
import { clientKey } from '../../http/clientKey.ts';
import type { RouteDeps } from '../../readModels/access/pageGate.ts';
import { pageMonitors } from '../../integrations/pageMonitors.ts';
import { noticeDocument } from './pageDocuments.ts';
import { sendConfirmation } from './sendConfirmation.ts';
import type { SignupDeps } from './signupDeps.ts';
import { parseSignup } from './signupRequest.ts';
import type { SignupThrottle } from './signupThrottle.ts';
import { normaliseEmail, signUp } from './subscriberStore.ts';
import { subscriptionPage } from './subscriptionPage.ts';
import { sendPage } from './sendPage.ts';
import { pageTexts } from './texts.ts';
import { pageHead, sameInLang, withLang, type PageHead } from './pageHead.ts';
import { pageAssets } from '../../statusPage/assets.ts';
import { errorDocument } from '../../statusPage/errorDocument.ts';

export const SIGNUP_PATH = '/api/status-pages/:slug/subscribers';
export const CONFIRMATION_SENT = { status: 'confirmation sent' } as const;

/** A browser's form post (it asks for HTML) gets pages; everyone else the API's JSON. */
const wantsPage = (req: Request): boolean =>
  req.is('application/x-www-form-urlencoded') !== false && req.accepts(['json', 'html']) === 'html';

const answerError = (
  res: Response,
  /** The answer's page (a browser's form post); null for the API's JSON, which has no language. */
  head: PageHead | null,
  { error, details }: Readonly<{ error: ApiError; details?: string[] }>,
) => {
  if (head === null) {
    sendError(res, error.code, details, error.retryAfter);
    return;
  }
  if (error.retryAfter !== undefined) res.setHeader('Retry-After', String(error.retryAfter));
  const texts = pageTexts(head.locale);
  const body =
    error.code === 'too_many_requests'
      ? texts.tooManyBody
      : error.code === 'unknown_components'
        ? texts.unknownComponents
        : texts.invalidEmailTitle;
  const heading = error.code === 'too_many_requests' ? texts.tooManyTitle : texts.invalidEmailTitle;
  sendPage(
    res,
    error.status,
    noticeDocument(head, heading, body, {
      href: withLang(`/s/${head.slug}/subscribe`, head),
      label: texts.subscribeAgain,
    }),
  );
};

export const signupHandler =
  (routeDeps: RouteDeps, deps: SignupDeps, throttle: SignupThrottle) =>
  async (req: Request, res: Response): Promise<void> => {
    res.locals['route'] = SIGNUP_PATH;
    const page = await subscriptionPage(routeDeps, req, 'admit');
    // Only a browser's form gets a page in a language; the JSON answers have none (`lang` is ignored).
    const head = wantsPage(req) ? pageHead(req, page) : null;
    if (wantsPage(req) && head === null) {
      sendPage(res, 400, errorDocument(400, page.locale, pageAssets(), sameInLang(req, page.slug)));
      return;
    }
    const request = parseSignup(req.body);
    if (typeof request === 'string') {
      answerError(res, head, { error: new ApiError(request) });
      return;
    }
    if (request.components.length) {
      const known = new Set((await pageMonitors(deps.db, page.slug)).map((monitor) => monitor.name));
      const unknown = request.components.filter((name) => !known.has(name));
      if (unknown.length) {
        answerError(res, head, { error: new ApiError('unknown_components'), details: unknown });
        return;
      }
    }
    const email = normaliseEmail(request.email);
    const wait = (await throttle.signUp(clientKey(req.ip), page.slug)) || (await throttle.mail(email));
    if (wait > 0) {
      answerError(res, head, { error: new ApiError('too_many_requests', { retryAfter: wait }) });
      return;
    }
    const row = await signUp(deps.db, {
      page: page.slug,
      email: request.email,
      components: request.components,
    });
    if (head !== null)
      sendPage(
        res,
        202,
        noticeDocument(head, pageTexts(head.locale).sentTitle, pageTexts(head.locale).sentBody, {
          href: withLang(`/s/${page.slug}`, head),
          label: pageTexts(head.locale).backToPage,
        }),
      );
    else
      res
        .status(202)
        .set({ 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
        .end(JSON.stringify(CONFIRMATION_SENT));
    void sendConfirmation(deps, { baseUrl: routeDeps.config.publicBaseUrl, page, email: request.email, row });
  };
