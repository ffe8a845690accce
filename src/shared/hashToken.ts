import { createHash, timingSafeEqual } from 'node:crypto';

// Page auth tokens and the ingest token are kept only as SHA-256 digests.
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Constant-time comparison of a presented token with a stored digest. */
export const tokenMatches = (presented: string | undefined, storedHash: string): boolean => {
  if (presented === undefined) return false;
  const a = Buffer.from(hashToken(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};
