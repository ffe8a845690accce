// Which failures mean a store is out for now (answer 503, the client retries) rather than a bug
// (500): recognised by the clients' error classes and codes, never by parsing free text.
import { ReplyError } from 'ioredis';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import { BackendTerminatedError, BackendTerminatedUnexpectedlyError, ConnectionError } from 'slonik';

/** Node's socket and DNS failures: the store's host refused, reset, or never answered. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);

/** Redis error replies (their first word) that mean "not now": loading, busy, failing over, resharding. */
// OOM (at maxmemory with noeviction) and READONLY (a replica during failover) refuse only writes,
// such as the token throttle's count: for a reader that is the store being unavailable for now.
const REDIS_BUSY_REPLIES = new Set([
  'LOADING',
  'BUSY',
  'MASTERDOWN',
  'CLUSTERDOWN',
  'TRYAGAIN',
  'OOM',
  'READONLY',
]);

// ioredis raises these as plain Errors with neither class nor code (Command.ts, cluster/index.ts):
// their fixed texts are all there is to recognise them by.
const IOREDIS_PLAIN_ERRORS = [
  'Command timed out',
  'Connection is closed.',
  'Too many Cluster redirections.',
  "Cluster isn't ready",
  'None of startup nodes is available',
];

const PG_UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  // Waiting too long for a lock or a statement, or losing a deadlock or serialization race:
  // the transaction was rolled back whole, so the client can simply try again.
  '55P03',
  '57014',
  '40P01',
  '40001',
]);

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;
const causeOf = (error: unknown): unknown => (error as { cause?: unknown } | null)?.cause;

/** A string code of the error or its cause, or undefined. */
const codesOf = (error: unknown): unknown[] => [codeOf(error), codeOf(causeOf(error))];

const isNetworkFailure = (error: unknown): boolean =>
  codesOf(error).some((code) => NETWORK_CODES.has(code as string));

/**
 * Redis unreachable, stalled (a command timed out), busy with a long script, or still loading its
 * data; a Redis Cluster not (yet) reachable, or moving the slot a read needs for longer than the
 * client retries (docs/operations.md): the read models are unavailable for now, not broken.
 */
export const isStoreOutage = (err: unknown): boolean => {
  if (!(err instanceof Error)) return false;
  if (err instanceof MaxRetriesPerRequestError || isNetworkFailure(err)) return true;
  if (err instanceof ReplyError) return REDIS_BUSY_REPLIES.has(err.message.split(' ', 1)[0] ?? '');
  return IOREDIS_PLAIN_ERRORS.some((text) => err.message.startsWith(text));
};

/** PostgreSQL unreachable, restarting, full, or the statement gave up waiting: retry later. */
export const isDatabaseUnavailable = (error: unknown): boolean =>
  error instanceof ConnectionError ||
  error instanceof BackendTerminatedError ||
  error instanceof BackendTerminatedUnexpectedlyError ||
  isNetworkFailure(error) ||
  codesOf(error).some((code) => PG_UNAVAILABLE_CODES.has(code as string));
