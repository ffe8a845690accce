// The links in subscriber mails carry a signed token: HMAC-SHA256 over the purpose, the
// subscriber and the page, so a confirm link cannot manage and a manage link cannot confirm.
// Confirm links expire after 48 h; manage links live as long as the subscriber (erasing the row
// kills them: a new sign-up gets a new id).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export type TokenPurpose = 'confirm' | 'manage';

export const CONFIRM_TTL_MS = 48 * 3600_000;

export type TokenClaims = Readonly<{ purpose: TokenPurpose; subscriber: string; page: string }>;

const Payload = z.object({
  p: z.enum(['confirm', 'manage']),
  s: z.string(),
  g: z.string(),
  e: z.number().int().optional(),
});

const mac = (key: Buffer, payload: string): Buffer =>
  createHmac('sha256', key).update(`mail-token.${payload}`).digest();

export const signToken = (key: Buffer, claims: TokenClaims, now: Date): string => {
  const expires = claims.purpose === 'confirm' ? { e: now.getTime() + CONFIRM_TTL_MS } : {};
  const payload = Buffer.from(
    JSON.stringify({ p: claims.purpose, s: claims.subscriber, g: claims.page, ...expires }),
  ).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
};

/** The claims of a genuine, unexpired token of `purpose`; null for anything else. */
export const verifyToken = (
  key: Buffer,
  token: unknown,
  purpose: TokenPurpose,
  now: Date,
): TokenClaims | null => {
  if (typeof token !== 'string' || token.length > 512) return null;
  const [payload = '', signature = '', ...rest] = token.split('.');
  if (rest.length) return null;
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const claims = Payload.safeParse(parsed);
  if (!claims.success || claims.data.p !== purpose) return null;
  if (purpose === 'confirm' && (claims.data.e === undefined || claims.data.e <= now.getTime())) return null;
  return { purpose, subscriber: claims.data.s, page: claims.data.g };
};

/**
 * A keyed digest for rate-limit counters in Redis: an address's SHA-256 alone could be found
 * again by hashing guesses; keyed, the counter names say nothing without the secret.
 */
export const counterDigest = (key: Buffer, kind: string, value: string): string =>
  createHmac('sha256', key).update(`counter.${kind}.${value}`).digest('base64url').slice(0, 32);
