// The public listener's memo of whole answers: a public 200 from the response cache is answered
// again, without entering Express, while its cache entry is current
// (docs/architecture.md, "The read path").
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import type { Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { ReadCache } from './readCache.ts';
import type { RequestObserver } from './requestLog.ts';
import { etagMatches } from './etagMatches.ts';
import { isCanonical, memoKeyOf } from './memoKey.ts';

type Answer = Readonly<{
  /** The cache value the answer was made from: valid while it is the cache's current entry. */
  from: object;
  route: string;
  etag: string;
  body: Buffer;
  headers: OutgoingHttpHeaders;
  /** A HEAD's: without Content-Length, as Node sends `res.end(body)` to a HEAD. */
  head: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
  /** Everything the entry holds: key, body, the three header sets, bookkeeping. */
  bytes: number;
}>;

// Bookkeeping of an entry beyond what is counted byte for byte (objects, LRU node, strings' heads).
const ANSWER_OVERHEAD = 512;

// A loop over the names, not Object.entries: no array of pairs for each header set of every answer
// remembered (a flood of distinct URLs remembers one per request).
const headerBytes = (headers: OutgoingHttpHeaders): number => {
  let bytes = 0;
  for (const name of Object.keys(headers)) bytes += 2 * (name.length + String(headers[name]).length) + 64;
  return bytes;
};

/** Where a request the memo could not answer is to be remembered: handed to the app in res.locals. */
type MemoSlot = Readonly<{ memo: ResponseMemo; key: string }>;
const MEMO_SLOT = 'memoSlot';

/** An answer of a public page, as `sendBody` is about to send it. */
type Remembered = Readonly<{
  from: object;
  route: string;
  etag: string;
  body: string | Buffer;
  contentType: string;
}>;

export const createResponseMemo = (cache: Pick<ReadCache, 'isCurrent'>, options: { maxBytes: number }) => {
  const answers = new LRUCache<string, Answer>({
    maxSize: options.maxBytes,
    sizeCalculation: (answer) => answer.bytes,
  });
  const stats = { hits: 0, stored: 0 };

  const memo = {
    /**
     * Answers `req` from the memo ('answered'); otherwise returns where to remember its answer,
     * or null when it is not to be remembered.
     */
    answer: (
      req: IncomingMessage,
      res: ServerResponse,
      observe: RequestObserver,
    ): MemoSlot | 'answered' | null => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return null;
      if (req.headers['if-modified-since'] !== undefined) return null;
      const key = memoKeyOf(req);
      if (key === null) return null;
      const answer = answers.get(key);
      if (answer === undefined || !cache.isCurrent(answer.from)) {
        if (answer !== undefined) answers.delete(key);
        return { memo, key };
      }
      stats.hits += 1;
      observe(req, res, answer.route);
      if (etagMatches(req.headers['if-none-match'], answer.etag)) {
        res.writeHead(304, answer.notModified);
        res.end();
      } else if (req.method === 'HEAD') {
        res.writeHead(200, answer.head);
        res.end();
      } else {
        res.writeHead(200, answer.headers);
        res.end(answer.body);
      }
      return 'answered';
    },
    store: (key: string, res: ServerResponse, out: Remembered): void => {
      if (!cache.isCurrent(out.from)) return; // made from a read that was not kept
      // CORS, ETag, Cache-Control, Last-Modified: all but the type, named as the routes named them.
      const notModified: OutgoingHttpHeaders = {};
      // getRawHeaderNames is on every OutgoingMessage since Node 15.13; @types/node has it on ClientRequest only.
      const named = res as ServerResponse & { getRawHeaderNames: () => string[] };
      for (const name of named.getRawHeaderNames()) notModified[name] = res.getHeader(name);
      const body = typeof out.body === 'string' ? Buffer.from(out.body, 'utf8') : out.body;
      const head = { ...notModified, 'Content-Type': out.contentType };
      const headers = { ...head, 'Content-Length': body.length };
      answers.set(key, {
        from: out.from,
        route: out.route,
        etag: out.etag,
        body,
        // With the head written first, Node would send the body chunked: give its length, as
        // `res.end(body)` alone does.
        headers,
        head,
        notModified,
        bytes:
          ANSWER_OVERHEAD +
          2 * (key.length + out.route.length + out.etag.length) +
          body.length +
          headerBytes(headers) +
          headerBytes(head) +
          headerBytes(notModified),
      });
      stats.stored += 1;
    },
    /** Answers given from the memo, and answers remembered, so far; answers held and their bytes. */
    stats: () => ({ ...stats, answers: answers.size, bytes: answers.calculatedSize }),
  };
  return memo;
};

export type ResponseMemo = ReturnType<typeof createResponseMemo>;

/**
 * Called by `sendBody` just before it sends a public page's 200 or 304 made from a cache value:
 * remembers the answer when the request came through a memo.
 */
export const rememberAnswer = (res: Response, out: Remembered): void => {
  const slot = res.locals[MEMO_SLOT] as MemoSlot | undefined;
  if (slot === undefined) return;
  res.locals[MEMO_SLOT] = undefined;
  if (isCanonical(res.req, out.route)) slot.memo.store(slot.key, res, out);
};

/** The public listener: the memo first, the app for everything it cannot answer. */
export const memoFront =
  (memo: ResponseMemo, app: RequestListener, observe: RequestObserver): RequestListener =>
  (req, res) => {
    const slot = memo.answer(req, res, observe);
    if (slot === 'answered') return;
    // Express keeps the locals it finds on the response: the routes' sendBody reads the slot there.
    if (slot !== null) Object.assign(res, { locals: { [MEMO_SLOT]: slot } });
    app(req, res);
  };
