// The email channel's public routes on the public listener: the sign-up API and the pages behind
// the mails' links. Mounted only with a mail transport: without one every path here is 404.
import express, { Router, type ErrorRequestHandler } from 'express';
import { DEFAULT_LOCALE } from '../../../projections/locale/locales.ts';
import { requestedLocale } from '../../locale/langParam.ts';
import { ApiError } from '../../http/errors.ts';
import { isStoreOutage } from '../../http/storeOutage.ts';
import { pageAssets } from '../../statusPage/assets.ts';
import { errorDocument } from '../../statusPage/errorDocument.ts';
import { sendPage } from './sendPage.ts';
import type { RouteDeps } from '../../readModels/access/pageGate.ts';
import type { SignupDeps } from './signupDeps.ts';
import { signupHandler, SIGNUP_PATH } from './signupRoute.ts';
import { createSignupThrottle } from './signupThrottle.ts';
import { subscriptionPages } from './subscriptionPages.ts';

// An address and a few component names: a sign-up is small.
const BODY_LIMIT = '16kb';

/**
 * The pages answer an unknown page or missing read models as the status page does: in HTML, in
 * the language asked for when it is one (the page's own is not known here).
 */
const pageErrors: ErrorRequestHandler = (err, req, res, next) => {
  const code = err instanceof ApiError ? err.code : isStoreOutage(err) ? 'service_unavailable' : null;
  const locale = requestedLocale(req, DEFAULT_LOCALE) ?? DEFAULT_LOCALE;
  if (code === 'not_found') sendPage(res, 404, errorDocument(404, locale, pageAssets()));
  else if (code === 'service_unavailable') {
    res.setHeader('Retry-After', '5');
    sendPage(res, 503, errorDocument(503, locale, pageAssets()));
  } else next(err);
};

export const subscriptionRoutes = (routeDeps: RouteDeps, deps: SignupDeps): Router => {
  const router = Router();
  const bodies = [
    express.json({ limit: BODY_LIMIT }),
    express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 250 }),
  ];
  const pages = subscriptionPages(routeDeps, deps);
  const throttle = createSignupThrottle(deps.redis, deps.prefix, deps.key);
  router.post(SIGNUP_PATH, ...bodies, signupHandler(routeDeps, deps, throttle));
  router.get('/s/:slug/subscribe', pages.subscribeForm);
  router.get('/s/:slug/subscription/confirm', pages.confirmForm);
  router.post('/s/:slug/subscription/confirm', pages.confirm);
  router.get('/s/:slug/subscription', pages.manageForm);
  router.post('/s/:slug/subscription', ...bodies, pages.manage);
  router.post('/s/:slug/subscription/unsubscribe', ...bodies, pages.unsubscribe);
  router.use(['/s/:slug/subscribe', '/s/:slug/subscription', '/s/:slug/subscription/*rest'], pageErrors);
  return router;
};
