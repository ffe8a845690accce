// Wrong private-page tokens per client and page (src/http/tokenThrottle.ts), on a moved clock.
import { describe, expect, it } from 'vitest';
import { createTokenThrottle } from '../../src/http/tokenThrottle.ts';

describe('token throttle', () => {
  it('blocks a key after maxFailures within the window, until the window ends', () => {
    let now = 1_000_000;
    const throttle = createTokenThrottle({ maxFailures: 3, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i += 1) {
      expect(throttle.wait('a')).toBe(0);
      throttle.failed('a');
    }
    expect([throttle.wait('a'), throttle.wait('b')]).toEqual([60, 0]);
    now += 30_500;
    expect(throttle.wait('a')).toBe(30);
    now += 29_500;
    expect(throttle.wait('a')).toBe(0); // a new window: three more tries
    throttle.failed('a');
    expect(throttle.wait('a')).toBe(0);
  });
});
