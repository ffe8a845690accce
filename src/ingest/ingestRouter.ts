// POST /v1/events on the operator listener: the HTTP door of ingest.md. Mount it without any body
// parser in front: it reads the raw body itself so it can stop at the size limit.
import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import type { DatabasePool } from 'slonik';
import { appendParsed, InvalidBatch, type AppendResult } from '../eventLog/appendEvents.ts';
import { bearerToken } from '../shared/bearerToken.ts';
import { sendError, type ApiErrorCode } from '../http/errors.ts';
import { isDatabaseUnavailable } from '../http/storeOutage.ts';
import { wakeAfterAppend, type Wake } from '../projector/queue.ts';
import { hashToken, tokenMatches } from '../shared/hashToken.ts';
import type { Logger } from '../shared/logger.ts';
import { parseEvent, type EventError, type ParsedEvent } from '../events/parseEvent.ts';
import { isBlank, parseNdjsonLine } from './readNdjson.ts';
import { weakTokenWarnings } from './weakTokens.ts';

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_EVENTS = 10_000;

type IngestDeps = {
  db: DatabasePool;
  ingestToken: string | null;
  clock: () => Date;
  log: Logger;
  wake: Wake;
  /** The service's own public host, which no page may claim as its custom domain. */
  ownHost?: string | null;
};

// Answering before the body is read: close the connection rather than let Node drain an
// unbounded upload on our behalf.
const refuse = (res: Response, code: ApiErrorCode): void => {
  res.setHeader('Connection', 'close');
  sendError(res, code);
};

const bodyFormat = (contentType: string | undefined): 'json' | 'ndjson' | null => {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/x-ndjson') return 'ndjson';
  return null;
};

/** The raw body, or null once it exceeds `limit` (reading stops there: nothing more is buffered). */
const readBody = (req: Request, limit: number): Promise<Buffer | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.pause();
      resolve(null);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parsed events of the body, or the answer that refuses it. */
const decodeBody = (
  body: Buffer,
  format: 'json' | 'ndjson',
  now: Date,
): (ParsedEvent | EventError)[] | ApiErrorCode => {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return 'malformed_body';
  }
  if (format === 'ndjson') {
    // Blank lines are not events: indexes count the non-blank lines only, as in a JSON array.
    const lines = text.split('\n').filter((line) => !isBlank(line));
    if (lines.length > MAX_EVENTS) return 'too_many_events';
    if (lines.length === 0) return 'malformed_body';
    return lines.map((line, index) => parseNdjsonLine(line, index, now));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'malformed_body';
  }
  if (!Array.isArray(raw) || raw.length === 0) return 'malformed_body';
  if (raw.length > MAX_EVENTS) return 'too_many_events';
  return raw.map((event: unknown, index) => parseEvent(event, index, now));
};

/** How long an HTTP append waits for a lock (another writer's) before answering 503. */
const APPEND_LOCK_TIMEOUT_MS = 1_000;
const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

// slonik errors carry the query's values (whole batches): log what identifies the failure only.
const summary = (error: unknown) =>
  error instanceof Error
    ? { type: error.name, message: error.message, code: codeOf(error), stack: error.stack }
    : { message: String(error) };

/** What refuses a request before its body is read, in the order ingest.md implies; null if nothing. */
const refusalOf = (req: Request, tokenHash: string | null): ApiErrorCode | null => {
  if (tokenHash === null) return 'ingest_disabled';
  if (!tokenMatches(bearerToken(req.headers.authorization), tokenHash)) return 'unauthorized';
  if (bodyFormat(req.headers['content-type']) === null) return 'unsupported_content_type';
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return 'payload_too_large';
  return null;
};
const format = (req: Request) => bodyFormat(req.headers['content-type']) ?? 'json';

/** POST /v1/events. Answers every case of ingest.md; never logs tokens or bodies. */
export const ingestRouter = (deps: IngestDeps): Router => {
  // Hashed once: each request then costs one digest and a constant-time comparison.
  const tokenHash = deps.ingestToken === null ? null : hashToken(deps.ingestToken);

  // A lost wake-up only delays the projectors until their poll: it must not hold up the answer.
  const wake = (result: AppendResult): void => {
    void wakeAfterAppend(deps.wake, result.pages, (error) => {
      deps.log.warn({ err: summary(error) }, 'ingest: waking projectors failed');
    });
  };

  // Express recognises an error handler by its four parameters.
  const onError: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
    } else if (isDatabaseUnavailable(error)) {
      deps.log.warn({ err: summary(error) }, 'ingest: database unavailable');
      sendError(res, 'service_unavailable');
    } else {
      deps.log.error({ err: summary(error) }, 'ingest: unexpected error');
      sendError(res, 'internal');
    }
  };

  return Router()
    .post('/v1/events', async (req, res) => {
      const refusal = refusalOf(req, tokenHash);
      if (refusal !== null) {
        refuse(res, refusal);
        return;
      }
      if (req.readableEnded)
        throw new Error('request body already consumed: mount ingestRouter before body parsers');

      // A read fails only when the client went away: there is nobody left to answer.
      const body = await readBody(req, MAX_BODY_BYTES).catch(() => undefined);
      if (body === undefined) return;
      if (body === null) {
        refuse(res, 'payload_too_large');
        return;
      }
      const now = deps.clock();
      const events = decodeBody(body, format(req), now);
      if (!Array.isArray(events)) {
        sendError(res, events);
        return;
      }

      try {
        const result = await appendParsed(deps.db, [events], {
          now,
          onCommitted: wake,
          ownHost: deps.ownHost ?? null,
          lockTimeoutMs: APPEND_LOCK_TIMEOUT_MS,
        });
        for (const { index, message } of weakTokenWarnings(events))
          deps.log.warn({ event: index }, `ingest: weak page token: ${message}`);
        res.status(202).json({
          accepted: result.accepted,
          duplicates: result.duplicates,
          last_position: result.lastPosition,
        });
      } catch (error) {
        if (!(error instanceof InvalidBatch)) throw error;
        sendError(res, 'invalid_events', error.details);
      }
    })
    .use(onError);
};
