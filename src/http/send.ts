// Sends ready bytes with their strong ETag, answering 304 to a matching If-None-Match. Bodies read
// from Redis go out exactly as stored: never parsed and re-serialised on the request path.
import type { Request, Response } from 'express';
import { etagOf } from '../models/bytes.ts';
import { etagMatches } from './etagMatches.ts';
import { rememberAnswer } from './responseMemo.ts';

export const cacheControl = {
  noStore: 'no-store',
  private: 'private, no-store',
  lists: 'public, max-age=30',
  embed: 'public, max-age=15',
  snippets: 'public, max-age=300',
  static: 'public, max-age=300',
} as const;

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Public pages get the group's rule; anything answered for a private page is `private, no-store`. */
export const cacheFor = (isPrivate: boolean, publicRule: string): string =>
  isPrivate ? cacheControl.private : publicRule;

export type Sendable = Readonly<{
  body: string | Buffer;
  etag: string;
  cacheControl: string;
  contentType?: string;
  status?: number;
  /** The response-cache value the answer is made from: lets the response memo answer it again. */
  from?: object;
}>;

/** Plain `setHeader`: every value here is final, so Express's header rewriting is not needed. */
export const sendBody = (req: Request, res: Response, out: Sendable): void => {
  res.setHeader('ETag', out.etag);
  res.setHeader('Cache-Control', out.cacheControl);
  const status = out.status ?? 200;
  const contentType = out.contentType ?? JSON_TYPE;
  // A private page's answer (cacheFor) depends on the request's token: never remembered.
  if (status === 200 && out.from !== undefined && out.cacheControl !== cacheControl.private) {
    const route = String(res.locals['route']);
    rememberAnswer(req, res, { from: out.from, route, etag: out.etag, body: out.body, contentType });
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
