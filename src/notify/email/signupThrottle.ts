// The sign-up's bounds, counted in Redis across every API process: 5 sign-ups per client address
// and page an hour, 3 confirmation mails per address a day. The counters are named by keyed
// digests (tokens.ts), never by an address; each is one key with its own hash tag (Cluster-safe).
import type { RedisClient } from '../../store/redisClient.ts';
import { withScripts } from '../../store/scripts.ts';
import { counterDigest } from './tokens.ts';

export const SIGNUPS_PER_CLIENT_HOUR = 5;
export const MAILS_PER_ADDRESS_DAY = 3;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export type SignupThrottle = Readonly<{
  /** 0 when let through (and counted), else the seconds to wait. */
  signUp: (client: string, page: string) => Promise<number>;
  mail: (normalisedEmail: string) => Promise<number>;
}>;

export const createSignupThrottle = (redis: RedisClient, prefix: string, key: Buffer): SignupThrottle => {
  const scripted = withScripts(redis);
  // The token throttle's script: refuse while full, else count; the window starts with the first.
  const take = async (kind: string, value: string, max: number, windowMs: number): Promise<number> => {
    const counter = `${prefix}:mail-${kind}:{${counterDigest(key, kind, value)}}`;
    const waitMs = await scripted.tokenAttempt(counter, max, windowMs, '1');
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
  };
  return {
    signUp: (client, page) => take('signups', `${client}\n${page}`, SIGNUPS_PER_CLIENT_HOUR, HOUR_MS),
    mail: (email) => take('confirmations', email, MAILS_PER_ADDRESS_DAY, DAY_MS),
  };
};
