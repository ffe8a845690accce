// The public API: validate, look up, send bytes. Read models are precomputed by the projector;
// nothing is aggregated on the request path. No listen here: server code and tests call buildApp.
import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import type { RedisClient } from './store/redisClient.ts';
import type { Registry } from 'prom-client';
import type { Config } from './config.ts';
import { cors } from './http/cors.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { createHttpMetrics, type HttpMetrics } from './http/httpMetrics.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { createPageLocator, type RouteDeps } from './readModels/access/pageGate.ts';
import { hostRouting } from './http/hostRouting.ts';
import { uncached, type ReadCache } from './http/readCache.ts';
import {
  requestLog,
  requestObserver,
  type RequestLogPolicy,
  type RequestObserver,
} from './http/requestLog.ts';
import { memoFront, type ResponseMemo } from './http/responseMemo.ts';
import {
  THROTTLE_LOCAL,
  createTokenThrottle,
  loadTokenThrottleSettings,
  type TokenThrottleSettings,
} from './http/tokenThrottle.ts';
import { createActiveVersionReader } from './store/control/activeVersionReader.ts';
import { createDomainDirectory, type DomainDirectory } from './readModels/domains/domainDirectory.ts';
import { createPageReads } from './readModels/pageReads.ts';
import type { Subscriber } from './store/subscriber.ts';
import { createSlaReads } from './readModels/sla/reads.ts';
import { slaApiRoutes, slaPageRoutes } from './readModels/sla/routes.ts';
import { createSubscriptionReads } from './readModels/subscriptionReads.ts';
import { availabilityRoutes } from './readModels/availability/routes.ts';
import { badgeRoutes } from './readModels/embed/badgeRoutes.ts';
import { chartRoutes } from './readModels/charts/routes.ts';
import { embedRoutes } from './readModels/embed/routes.ts';
import { embedStreamRoutes } from './readModels/embed/streamRoutes.ts';
import { feedRoutes } from './readModels/feeds/routes.ts';
import { incidentRoutes } from './readModels/lists/incidentRoutes.ts';
import { maintenanceRoutes } from './readModels/lists/maintenanceRoutes.ts';
import { metaRoutes } from './routes/meta.ts';
import { routeTable } from './http/routeTable.ts';
import { statusPageHtmlRoutes } from './routes/statusPageHtmlRoutes.ts';
import { statuspageApiRoutes } from './readModels/statuspage/routes.ts';
import { createStatuspageReads } from './readModels/statuspage/reads.ts';
import { widgetRoutes } from './routes/widget.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import type { Logger } from './shared/logger.ts';
import { createChangeHub, type ChangeHub } from './readModels/embed/changeHub.ts';
import { pushRoutes, type PushDeps } from './integrations/pushRoutes.ts';
import type { SignupDeps } from './notify/email/signupDeps.ts';
import { subscriptionRoutes } from './notify/email/subscriptionRoutes.ts';

type AppDeps = Readonly<{
  redis: RedisClient;
  /** REDIS_PREFIX; tests pass a fresh one. */
  prefix: string;
  config: Config;
  log: Logger;
  /** Request metrics; or a registry to create them in (createHttpMetrics). */
  metrics?: HttpMetrics;
  registry?: Registry;
  /** Custom domain → page; pass one to close it at shutdown (it subscribes on first use). */
  domains?: DomainDirectory;
  /** Live-stream fan-out; pass one to close it at shutdown (it opens its connection lazily). */
  streams?: ChangeHub;
  /**
   * The process's one subscriber to the projector's change announcements, shared with `domains`
   * and `streams`. Only with one does the app cache responses in memory (`cache`): the cache is
   * only as fresh as the announcements it hears.
   */
  subscriber?: Subscriber;
  /** The response cache (createReadCache on `subscriber`); close it at shutdown. */
  cache?: ReadCache;
  /** Which requests get a log line; every request without one (see readPathSettings.ts). */
  requestLog?: RequestLogPolicy;
  /** Wrong private-page tokens per client and page; TOKEN_FAILURES_* from the environment otherwise. */
  tokenThrottle?: TokenThrottleSettings;
  /** The instant of answers assembled when read (charts, minute data, rtm, upd); the system clock otherwise. */
  clock?: Clock;
  /** Push monitors' heartbeats (GET/POST /push/{token}) write to the log; absent, /push is 404. */
  push?: PushDeps;
  /** The public email sign-up and subscription pages; absent (no mail transport), they are 404. */
  signup?: SignupDeps;
}>;

const observerOf = (deps: AppDeps): RequestObserver =>
  requestObserver(
    deps.log,
    deps.metrics ?? (deps.registry ? createHttpMetrics(deps.registry) : undefined),
    deps.requestLog,
  );

export const buildApp = (deps: AppDeps, observe: RequestObserver = observerOf(deps)): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // strong ETags come from the stored bodies
  app.set('query parser', 'simple'); // flat strings; a repeated parameter becomes an array (invalid)
  app.set('trust proxy', deps.config.trustProxy); // whose X-Forwarded-Host req.hostname believes
  app.locals[THROTTLE_LOCAL] = createTokenThrottle({
    redis: deps.redis,
    prefix: deps.prefix,
    settings: deps.tokenThrottle ?? loadTokenThrottleSettings(),
  });
  app.use(requestLog(observe));
  app.use(cors);

  const readActive = createActiveVersionReader(deps.redis, deps.prefix);
  const routeDeps: RouteDeps = {
    reads: createPageReads(deps.redis, {
      baseUrl: deps.config.publicBaseUrl,
      pageUrlTemplate: deps.config.pageUrlTemplate,
    }),
    locate: createPageLocator(readActive, deps.prefix),
    config: deps.config,
    cache: deps.cache ?? uncached,
    clock: deps.clock ?? systemClock,
  };
  const shared = deps.subscriber === undefined ? {} : { subscriber: deps.subscriber };
  const domains =
    deps.domains ??
    createDomainDirectory({ redis: deps.redis, prefix: deps.prefix, log: deps.log, readActive, ...shared });
  app.use(hostRouting(domains.pageOf));
  const streams =
    deps.streams ??
    createChangeHub({
      redis: deps.redis,
      prefix: deps.prefix,
      log: deps.log,
      clock: routeDeps.clock,
      ...shared,
    });
  const subscriptionReads = createSubscriptionReads(deps.redis);
  const slaReads = createSlaReads(deps.redis);
  const openApiJson = JSON.stringify(buildOpenApiDocument(deps.config.publicBaseUrl));
  if (deps.push) app.use(pushRoutes(deps.push));
  if (deps.signup) app.use(subscriptionRoutes(routeDeps, deps.signup));
  app.use(
    routeTable([
      ...metaRoutes(openApiJson),
      ...widgetRoutes(),
      ...incidentRoutes(routeDeps),
      ...maintenanceRoutes(routeDeps),
      ...chartRoutes(routeDeps),
      ...availabilityRoutes(routeDeps),
      ...embedRoutes(routeDeps),
      ...embedStreamRoutes(routeDeps, subscriptionReads, streams),
      ...feedRoutes(routeDeps, subscriptionReads),
      ...statuspageApiRoutes(
        routeDeps,
        createStatuspageReads(deps.redis, {
          baseUrl: deps.config.publicBaseUrl,
          pageUrlTemplate: deps.config.pageUrlTemplate,
        }),
      ),
      ...badgeRoutes(routeDeps),
      ...statusPageHtmlRoutes(routeDeps, deps.signup !== undefined),
      ...slaApiRoutes(routeDeps, slaReads),
      ...slaPageRoutes(routeDeps, slaReads),
    ]),
  );
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
};

/**
 * The public listener's request handler: with a response memo (the read path of `npm run serve`),
 * answers it can give again never enter Express; everything else goes to the app.
 */
export const buildPublicHandler = (deps: AppDeps & Readonly<{ memo?: ResponseMemo }>): RequestListener => {
  const observe = observerOf(deps);
  const app = buildApp(deps, observe);
  return deps.memo ? memoFront(deps.memo, app, observe) : app;
};
