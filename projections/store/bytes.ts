// Ready-to-send bodies are stored as "<etag>\n<json>": the strong ETag is computed once, when
// the body is rendered, never on the request path.
import { createHash } from 'node:crypto';

export const etagOf = (body: string): string =>
  `"${createHash('sha1').update(body, 'utf8').digest('base64url')}"`;

export const toBytes = (body: string): string => `${etagOf(body)}\n${body}`;

type StoredBody = Readonly<{ etag: string; body: string }>;

export const fromBytes = (stored: string | null | undefined): StoredBody | null => {
  if (!stored) return null;
  const newline = stored.indexOf('\n');
  if (newline < 0) return null;
  return { etag: stored.slice(0, newline), body: stored.slice(newline + 1) };
};

/** A stored body as read for sending: its ETag, and the bytes after the newline, never decoded. */
export type StoredBytes = Readonly<{ etag: string; body: Buffer }>;

const NEWLINE = 0x0a;

export const fromBuffer = (stored: Buffer | null | undefined): StoredBytes | null => {
  if (!stored || stored.length === 0) return null;
  const newline = stored.indexOf(NEWLINE);
  if (newline < 0) return null;
  return { etag: stored.toString('latin1', 0, newline), body: stored.subarray(newline + 1) };
};
