// When a failed delivery is tried again (notifications.md, "Delivery"): about 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after the attempts before, with ±10 % jitter so a receiver
// that was down is not hit by every message in the same second. After the last, the subscriber
// is quarantined.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/**
 * The delay before the next attempt after attempt `attempt` (1 = the first send) failed, or null
 * when it was the last. `random` in [0, 1); `retryAfterMs`, when the receiver named one, is honoured.
 */
export const nextRetryDelay = (
  attempt: number,
  random: number,
  retryAfterMs: number | null,
): number | null => {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (0.9 + 0.2 * random));
  return Math.max(jittered, retryAfterMs ?? 0);
};
