import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWaker } from '../../../src/notify/waker.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled once pending callbacks ran (timers not advanced). */
const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
};

describe('a notifier loop’s waker', () => {
  it('sleeps its poll period when nobody wakes it', async () => {
    const waker = createWaker(250);
    const sleeping = waker.sleep();
    await vi.advanceTimersByTimeAsync(249);
    expect(await settled(sleeping)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(sleeping)).toBe(true);
  });

  it('ends a sleep at once when woken', async () => {
    const waker = createWaker(60_000);
    const sleeping = waker.sleep();
    waker.wake();
    expect(await settled(sleeping)).toBe(true);
  });

  it('keeps a wake that came while the loop was busy for its next sleep, once', async () => {
    const waker = createWaker(60_000);
    waker.wake();
    waker.wake();
    expect(await settled(waker.sleep())).toBe(true);
    expect(await settled(waker.sleep())).toBe(false);
  });
});
