import { describe, expect, it } from 'vitest';
import { etagMatches } from '../../src/http/etagMatches.ts';

describe('etagMatches (If-None-Match)', () => {
  it.each([
    ['"a"', true],
    ['"b", "a"', true],
    ['W/"a"', true],
    ['*', true],
    ['"b"', false],
    ['', false],
    ['a', false],
    [',,,', false],
  ])('%s → %s', (header, expected) => {
    expect(etagMatches(header, '"a"')).toBe(expected);
  });

  it('is false without the header', () => {
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});
