import { describe, expect, it } from 'vitest';
import { counterDigest, signToken, verifyToken } from '../../src/notify/email/tokens.ts';

const KEY = Buffer.from('a-key-of-thirty-two-characters!!');
const NOW = new Date('2026-11-22T12:00:00Z');
const later = (hours: number) => new Date(NOW.getTime() + hours * 3600_000);
const claims = { subscriber: 'sub_AAAAAAAAAAAAAAAAAAAAAA', page: 'acme' } as const;

describe('mail link tokens', () => {
  it('a confirm token confirms for 48 hours, then never', () => {
    const token = signToken(KEY, { purpose: 'confirm', ...claims }, NOW);
    expect(verifyToken(KEY, token, 'confirm', later(47.99))).toEqual({ purpose: 'confirm', ...claims });
    expect(verifyToken(KEY, token, 'confirm', later(48))).toBeNull();
  });

  it('is single-purpose: a confirm token cannot manage, a manage token cannot confirm', () => {
    const confirm = signToken(KEY, { purpose: 'confirm', ...claims }, NOW);
    const manage = signToken(KEY, { purpose: 'manage', ...claims }, NOW);
    expect(verifyToken(KEY, confirm, 'manage', NOW)).toBeNull();
    expect(verifyToken(KEY, manage, 'confirm', NOW)).toBeNull();
    expect(verifyToken(KEY, manage, 'manage', later(24 * 365))).toEqual({ purpose: 'manage', ...claims });
  });

  it('refuses another key, a changed payload and junk', () => {
    const token = signToken(KEY, { purpose: 'manage', ...claims }, NOW);
    expect(verifyToken(Buffer.from('another-key-of-thirty-two-chars!'), token, 'manage', NOW)).toBeNull();
    const [, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ p: 'manage', s: 'sub_other', g: 'acme' })).toString(
      'base64url',
    );
    expect(verifyToken(KEY, `${forged}.${signature ?? ''}`, 'manage', NOW)).toBeNull();
    for (const junk of [undefined, '', 'a.b', `${token}.x`, 42, ['x']])
      expect(verifyToken(KEY, junk, 'manage', NOW)).toBeNull();
  });

  it('counter digests depend on the key and the kind, and do not contain the value', () => {
    const digest = counterDigest(KEY, 'address', 'reader@example.org');
    expect(digest).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(digest).not.toBe(counterDigest(KEY, 'client', 'reader@example.org'));
    expect(digest).not.toBe(counterDigest(Buffer.from('x'.repeat(32)), 'address', 'reader@example.org'));
  });
});
