// The one route table of the public API: every GET path in a single lookup by its first segment,
// with Express's matching rules.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ApiError, type ApiErrorCode } from './errors.ts';
import { must } from '../shared/must.ts';

export type Route = Readonly<{
  /** An Express-style pattern, also the route's label in logs and metrics. */
  path: string;
  handle: (req: Request, res: Response) => void | Promise<void>;
  /** The answer to a parameter that cannot be decoded (default: not found). */
  undecodable?: ApiErrorCode;
  /** Errors this route answers itself (the badge's image, the status page's HTML). */
  onError?: ErrorRequestHandler;
}>;

type Segment = Readonly<{ literal: string } | { param: string }>;
type Compiled = Readonly<{ route: Route; segments: readonly Segment[] }>;

const compile = (route: Route): Compiled => ({
  route,
  segments: route.path
    .split('/')
    .slice(1)
    .map((part) => (part.startsWith(':') ? { param: part.slice(1) } : { literal: part.toLowerCase() })),
});

/** The raw (still encoded) parameters of `parts` under `segments`, or null when they do not match. */
const match = (segments: readonly Segment[], parts: readonly string[]): Record<string, string> | null => {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    const part = must(parts[i], 'a path segment'); // as many as segments (checked above)
    if ('literal' in segment) {
      if (part !== segment.literal && part.toLowerCase() !== segment.literal) return null;
    } else {
      if (part === '') return null;
      params[segment.param] = part;
    }
  }
  return params;
};

const decodeAll = (raw: Record<string, string>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw))
    out[name] = value.includes('%') ? decodeURIComponent(value) : value;
  return out;
};

export const routeTable = (routes: readonly Route[]): RequestHandler => {
  const byFirst = new Map<string, Compiled[]>();
  for (const compiled of routes.map(compile)) {
    const first = compiled.segments[0];
    const key = first !== undefined && 'literal' in first ? first.literal : '';
    byFirst.set(key, [...(byFirst.get(key) ?? []), compiled]);
  }
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const parts = path.split('/').slice(1);
    const candidates = byFirst.get(must(parts[0], 'the first path segment').toLowerCase()) ?? [];
    for (const { route, segments } of candidates) {
      const raw = match(segments, parts);
      if (raw === null) continue;
      res.locals['route'] = route.path;
      // Express 5 parses the query string again on every read of req.query: parse it once.
      Object.defineProperty(req, 'query', { value: req.query, configurable: true, enumerable: true });
      const fail = (error: unknown) => {
        if (route.onError) route.onError(error, req, res, next);
        else next(error);
      };
      try {
        req.params = decodeAll(raw);
      } catch (error) {
        fail(route.onError ? error : new ApiError(route.undecodable ?? 'not_found', { cause: error }));
        return;
      }
      try {
        const pending = route.handle(req, res);
        if (pending !== undefined) pending.catch(fail);
      } catch (error) {
        fail(error);
      }
      return;
    }
    next();
  };
};
