// One log line and one metrics sample per request. Only the route pattern and the path are logged,
// never the query string: it may carry a page's auth_token.
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../shared/logger.ts';
import type { HttpMetrics } from './httpMetrics.ts';

const MAX_PATH = 200;

export const routeLabel = (req: Request): string => {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return path;
  return req.method === 'OPTIONS' ? 'OPTIONS *' : 'unmatched';
};

// A token pasted into the path itself (e.g. an encoded "?") is cut off as well.
const pathOf = (req: Request): string =>
  (req.originalUrl.split('?', 1)[0] ?? '').replace(/auth_token.*$/is, '[redacted]').slice(0, MAX_PATH);

export const requestLog =
  (log: Logger, metrics?: HttpMetrics): RequestHandler =>
  (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req);
      const status = res.headersSent ? res.statusCode : 499; // 499: the client went away first
      metrics?.requests.inc({ route, status: String(status) });
      metrics?.duration.observe({ route }, seconds);
      log.info(
        {
          method: req.method,
          route,
          path: pathOf(req),
          status,
          duration_ms: Math.round(seconds * 1e6) / 1e3,
        },
        'request',
      );
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
