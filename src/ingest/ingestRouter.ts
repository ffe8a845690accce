// POST /v1/events on the operator listener: the HTTP door of ingest.md. Mount it without any body
// parser in front: it reads the raw body itself so it can stop at the size limit.
import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import {
  BackendTerminatedError,
  BackendTerminatedUnexpectedlyError,
  ConnectionError,
  type DatabasePool,
} from 'slonik';
import { appendParsed, InvalidBatch, type AppendResult } from '../eventLog/appendEvents.ts';
import { hashToken, tokenMatches } from '../shared/hashToken.ts';
import type { Logger } from '../shared/logger.ts';
import { parseEvent, type EventError, type ParsedEvent } from '../events/parseEvent.ts';
import { isBlank, parseNdjsonLine } from './readNdjson.ts';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;
export const MAX_EVENTS = 10_000;

export type IngestDeps = {
  db: DatabasePool;
  ingestToken: string | null;
  clock: () => Date;
  log: Logger;
  wake: (pages: string[]) => Promise<void>;
  /** The service's own public host, which no page may claim as its custom domain. */
  ownHost?: string | null;
};

type Answer = Readonly<{ status: number; error: string }>;
const answers = {
  disabled: { status: 503, error: 'ingest disabled' },
  unauthorized: { status: 401, error: 'unauthorized' },
  unsupported: { status: 415, error: 'unsupported content type' },
  tooLarge: { status: 413, error: 'payload too large' },
  tooMany: { status: 413, error: 'too many events' },
  malformed: { status: 400, error: 'malformed body' },
  unavailable: { status: 503, error: 'service unavailable' },
  internal: { status: 500, error: 'internal error' },
} as const satisfies Record<string, Answer>;

const send = (res: Response, answer: Answer): void => {
  res.status(answer.status).json({ error: answer.error });
};

// Answering before the body is read: close the connection rather than let Node drain an
// unbounded upload on our behalf.
const refuse = (res: Response, answer: Answer): void => {
  res.setHeader('Connection', 'close');
  send(res, answer);
};

const bearerToken = (header: string | undefined): string | undefined =>
  /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];

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
): (ParsedEvent | EventError)[] | Answer => {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return answers.malformed;
  }
  if (format === 'ndjson') {
    // Blank lines are not events: indexes count the non-blank lines only, as in a JSON array.
    const lines = text.split('\n').filter((line) => !isBlank(line));
    if (lines.length > MAX_EVENTS) return answers.tooMany;
    if (lines.length === 0) return answers.malformed;
    return lines.map((line, index) => parseNdjsonLine(line, index, now));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return answers.malformed;
  }
  if (!Array.isArray(raw) || raw.length === 0) return answers.malformed;
  if (raw.length > MAX_EVENTS) return answers.tooMany;
  return raw.map((event: unknown, index) => parseEvent(event, index, now));
};

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

const isDatabaseUnavailable = (error: unknown): boolean =>
  error instanceof ConnectionError ||
  error instanceof BackendTerminatedError ||
  error instanceof BackendTerminatedUnexpectedlyError ||
  UNAVAILABLE_CODES.has(codeOf(error) as string) ||
  UNAVAILABLE_CODES.has(codeOf((error as { cause?: unknown } | null)?.cause) as string);

// slonik errors carry the query's values (whole batches): log what identifies the failure only.
const summary = (error: unknown) =>
  error instanceof Error
    ? { type: error.name, message: error.message, code: codeOf(error), stack: error.stack }
    : { message: String(error) };

/** What refuses a request before its body is read, in the order ingest.md implies; null if nothing. */
const refusalOf = (req: Request, tokenHash: string | null): Answer | null => {
  if (tokenHash === null) return answers.disabled;
  if (!tokenMatches(bearerToken(req.headers.authorization), tokenHash)) return answers.unauthorized;
  if (bodyFormat(req.headers['content-type']) === null) return answers.unsupported;
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return answers.tooLarge;
  return null;
};
const format = (req: Request) => bodyFormat(req.headers['content-type']) ?? 'json';

/** POST /v1/events. Answers every case of ingest.md; never logs tokens or bodies. */
export const ingestRouter = (deps: IngestDeps): Router => {
  // Hashed once: each request then costs one digest and a constant-time comparison.
  const tokenHash = deps.ingestToken === null ? null : hashToken(deps.ingestToken);

  // The events are committed whatever happens here: a lost wake-up only delays the projectors
  // until their periodic poll, so it must neither fail nor hold up the answer.
  const wake = (result: AppendResult): void => {
    if (result.pages.length === 0) return;
    const failed = (error: unknown) => {
      deps.log.warn({ err: summary(error) }, 'ingest: waking projectors failed');
    };
    try {
      deps.wake(result.pages).catch(failed);
    } catch (error) {
      failed(error);
    }
  };

  // Express recognises an error handler by its four parameters.
  const onError: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
    } else if (isDatabaseUnavailable(error)) {
      deps.log.warn({ err: summary(error) }, 'ingest: database unavailable');
      send(res, answers.unavailable);
    } else {
      deps.log.error({ err: summary(error) }, 'ingest: unexpected error');
      send(res, answers.internal);
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
        refuse(res, answers.tooLarge);
        return;
      }
      const now = deps.clock();
      const events = decodeBody(body, format(req), now);
      if (!Array.isArray(events)) {
        send(res, events);
        return;
      }

      try {
        const result = await appendParsed(deps.db, [events], {
          now,
          onCommitted: wake,
          ownHost: deps.ownHost ?? null,
        });
        res.status(202).json({
          accepted: result.accepted,
          duplicates: result.duplicates,
          last_position: result.lastPosition,
        });
      } catch (error) {
        if (!(error instanceof InvalidBatch)) throw error;
        res.status(400).json({ error: 'invalid events', details: error.details });
      }
    })
    .use(onError);
};
