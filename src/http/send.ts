// Sends ready bytes with their strong ETag, answering 304 to a matching If-None-Match. Bodies read
// from Redis go out exactly as stored: never parsed and re-serialised on the request path.
import type { Request, Response } from 'express';
import { edgeHeaders, type EdgeAnswer } from '../edge/edgeHeaders.ts';
import { etagOf } from '../../projections/store/bytes.ts';
import { etagMatches } from './etagMatches.ts';
import { rememberAnswer } from './responseMemo.ts';

// Public answers may be served stale by a browser or an edge while the origin fails (edge-caching.md).
export const STALE_IF_ERROR = ', stale-if-error=86400';

export const cacheControl = {
  noStore: 'no-store',
  private: 'private, no-store',
  lists: `public, max-age=30${STALE_IF_ERROR}`,
  embed: `public, max-age=15${STALE_IF_ERROR}`,
  snippets: `public, max-age=300${STALE_IF_ERROR}`,
  static: `public, max-age=300${STALE_IF_ERROR}`,
} as const;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Public pages get the group's rule; anything answered for a private page is `private, no-store`. */
export const cacheFor = (isPrivate: boolean, publicRule: string): string =>
  isPrivate ? cacheControl.private : publicRule;

type Sendable = Readonly<{
  body: string | Buffer;
  etag: string;
  cacheControl: string;
  contentType?: string;
  status?: number;
  /** The response-cache value the answer is made from: lets the response memo answer it again. */
  from?: object;
  /** Surrogate keys and edge lifetime of a cacheable public answer (never sent for a private one). */
  edge?: EdgeAnswer;
  /** False when the body may predate a change the process heard of: the edge keeps it a second. */
  settled?: boolean;
}>;

/** Sets the edge headers of `out` when it has them and is not a private page's answer. */
export const setEdgeHeaders = (res: Response, out: Pick<Sendable, 'edge' | 'settled' | 'cacheControl'>) => {
  if (out.edge === undefined || out.cacheControl === cacheControl.private) return;
  for (const [name, value] of Object.entries(edgeHeaders(out.edge, Date.now(), out.settled ?? true)))
    res.setHeader(name, value);
};

/** Plain `setHeader`: every value here is final, so Express's header rewriting is not needed. */
export const sendBody = (req: Request, res: Response, out: Sendable): void => {
  res.setHeader('ETag', out.etag);
  res.setHeader('Cache-Control', out.cacheControl);
  setEdgeHeaders(res, out);
  const status = out.status ?? 200;
  const contentType = out.contentType ?? JSON_TYPE;
  // A private page's answer (cacheFor) depends on the request's token: never remembered.
  if (status === 200 && out.from !== undefined && out.cacheControl !== cacheControl.private) {
    const route = String(res.locals['route']);
    rememberAnswer(res, { from: out.from, route, etag: out.etag, body: out.body, contentType });
  }
  if (status === 200 && etagMatches(req.headers['if-none-match'], out.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.end(out.body);
};

/** A body made on the request path (lists, embed variants) with its ETag, as bytes. */
export const readyBody = (body: string): Readonly<{ body: Buffer; etag: string }> => ({
  body: Buffer.from(body, 'utf8'),
  etag: etagOf(body),
});
