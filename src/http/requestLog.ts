// Request metrics for every request, and a log line only for the requests LOG_REQUESTS asks for
// (docs/operations.md, "The request path").
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../shared/logger.ts';
import type { HttpMetrics } from './httpMetrics.ts';

const MAX_PATH = 200;

/** `all`: every request at info; `errors`: 5xx and slow ones at warn; `off`: none. */
export type RequestLogPolicy = Readonly<{ lines: 'all' | 'errors' | 'off'; slowMs: number }>;

const LOG_EVERY_REQUEST: RequestLogPolicy = { lines: 'all', slowMs: 0 };

const routeLabel = (req: Request, res: Response): string => {
  const route: unknown = res.locals['route'];
  if (typeof route === 'string') return route;
  return req.method === 'OPTIONS' ? 'OPTIONS *' : 'unmatched';
};

// A token pasted into the path itself (e.g. an encoded "?") is cut off as well. The path as the
// client sent it: Express's originalUrl, before custom-domain routing rewrote req.url.
const pathOf = (req: IncomingMessage): string =>
  (((req as Partial<Request>).originalUrl ?? req.url ?? '').split('?', 1)[0] ?? '')
    .replace(/auth_token.*$/is, '[redacted]')
    .replace(/^\/push\/.*$/is, '/push/[redacted]') // a push token is the path itself
    .slice(0, MAX_PATH);

/** prom-client resolves label values on every call; the children of a (route, status) pair are kept. */
const cheapMetrics = (metrics: HttpMetrics) => {
  const counters = new Map<string, ReturnType<HttpMetrics['requests']['labels']>>();
  const histograms = new Map<string, ReturnType<HttpMetrics['duration']['labels']>>();
  return (route: string, status: number, seconds: number) => {
    const key = `${route} ${status}`;
    let counter = counters.get(key);
    if (counter === undefined) counters.set(key, (counter = metrics.requests.labels(route, String(status))));
    counter.inc();
    let histogram = histograms.get(route);
    if (histogram === undefined) histograms.set(route, (histogram = metrics.duration.labels(route)));
    histogram.observe(seconds);
  };
};

/** Records a request's metrics and log line once it ends; `route` is read then (or given). */
export type RequestObserver = (
  req: IncomingMessage,
  res: ServerResponse,
  route: string | (() => string),
) => void;

export const requestObserver = (
  log: Logger,
  metrics?: HttpMetrics,
  policy: RequestLogPolicy = LOG_EVERY_REQUEST,
): RequestObserver => {
  const record = metrics === undefined ? null : cheapMetrics(metrics);
  return (req, res, routeOf) => {
    const started = performance.now();
    // 'close' comes after 'finish' too, so one listener sees both endings.
    res.once('close', () => {
      const ms = performance.now() - started;
      const route = typeof routeOf === 'string' ? routeOf : routeOf();
      const status = res.headersSent ? res.statusCode : 499; // 499: the client went away first
      record?.(route, status, ms / 1000);
      if (policy.lines === 'off') return;
      const notable = status >= 500 || ms >= policy.slowMs;
      if (policy.lines === 'errors' && !notable) return;
      const line = {
        method: req.method,
        route,
        path: pathOf(req),
        status,
        duration_ms: Math.round(ms * 1e3) / 1e3,
      };
      if (policy.lines === 'all') log.info(line, 'request');
      else log.warn(line, status >= 500 ? 'request failed' : 'slow request');
    });
  };
};

/** The observer as the app's first middleware: the route is the one the route table matched. */
export const requestLog =
  (observe: RequestObserver): RequestHandler =>
  (req, res, next) => {
    observe(req, res, () => routeLabel(req, res));
    next();
  };
