// The API's read client reconnects to a Redis that comes back within half a second, however long
// it was away: readers behind an edge get fresh answers again within a second (docs/deploy.md).
import { describe, expect, it } from 'vitest';
import { readReconnectDelay } from '../../src/runtime/clients.ts';

describe('the read client reconnecting', () => {
  it('tries again soon at first, and never waits more than 500 ms between tries', () => {
    expect([1, 2, 5, 10, 100, 10_000].map(readReconnectDelay)).toEqual([50, 100, 250, 500, 500, 500]);
  });
});
