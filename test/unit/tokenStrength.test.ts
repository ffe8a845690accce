// How much randomness a private page's token can carry (docs/ingest.md, "Page tokens").
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIN_TOKEN_BITS, tokenBits } from '../../src/events/tokenStrength.ts';

describe('page token strength', () => {
  it('counts a token by its length and the alphabet it draws from', () => {
    expect(MIN_TOKEN_BITS).toBe(128);
    expect(tokenBits('0123456789abcdef0123456789abcdef')).toBe(128); // 32 hex
    expect(tokenBits('0123456789ABCDEF0123456789ABCDEF')).toBe(128);
    expect(tokenBits('1234567890123456')).toBe(Math.floor(16 * Math.log2(10)));
    expect(tokenBits('abcdefghijklmnopqrstuv')).toBe(Math.floor(22 * Math.log2(26)));
    expect(tokenBits('abcdefghijKLMNOPQR-_12')).toBe(22 * 6); // base64url
  });

  it('finds what crypto randomness of 128 bits gives strong, however encoded', () => {
    for (let i = 0; i < 200; i += 1) {
      const bytes = randomBytes(16);
      for (const token of [bytes.toString('hex'), bytes.toString('base64url'), bytes.toString('base64')])
        expect(tokenBits(token), token).toBeGreaterThanOrEqual(MIN_TOKEN_BITS);
    }
  });

  it('finds short, single-class and repetitive tokens weak', () => {
    for (const token of [
      '0123456789abcdef', // 16 hex: 64 bits
      'correcthorsebatterystaple', // letters only: 117
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'password-password-password-1234',
      'abcABC123abcABC123abcABC123abcABC123',
    ])
      expect(tokenBits(token), token).toBeLessThan(MIN_TOKEN_BITS);
  });
});
