// A purge drainer's heartbeat (projections/store/control/keys.ts, `purgerAliveKey`): a key that
// outlives the drainer's last beat by HEARTBEAT_TTL_MS. Each claim records its drainer, and a
// drainer whose key is gone is dead: its claims are taken at once (src/store/claimPurges.lua)
// instead of when their lease ends.
import { randomBytes } from 'node:crypto';
import { purgerAliveKey } from '../../projections/store/control/keys.ts';
import type { Logger } from '../shared/logger.ts';
import type { RedisClient } from '../store/redisClient.ts';

// A beat every 150 ms, gone 600 ms after the last: a drainer killed at any moment after a commit
// has its claims sent again within a second of that commit (the purge budget: 600 ms, the other
// drainer's wake and the call). A live one is taken for dead only after three missed beats (its
// event loop or Redis stalled 450 ms), which at worst sends its purges twice: harmless.
export const HEARTBEAT_MS = 150;
export const HEARTBEAT_TTL_MS = 600;

/** Of the owners asked about: the dead, and in how many ms the soonest alive one is gone if it stops beating (null: none alive). */
export type Liveness = Readonly<{ dead: string[]; soonestGoneMs: number | null }>;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const createPurgerHeartbeat = (
  redis: RedisClient,
  prefix: string,
  log: Logger,
  { beatMs = HEARTBEAT_MS, ttlMs = HEARTBEAT_TTL_MS }: Readonly<{ beatMs?: number; ttlMs?: number }> = {},
) => {
  // Random per process: a drainer started again is a new owner, so the old one's claims are dead.
  const id = randomBytes(8).toString('hex');
  const beat = async (): Promise<void> => {
    await redis.set(purgerAliveKey(prefix, id), '1', 'PX', ttlMs);
  };
  let failing = false;
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beat().then(
      () => {
        if (failing) log.info('edge purger heartbeat recovered');
        failing = false;
      },
      (error: unknown) => {
        if (!failing) log.warn({ err: errorText(error) }, 'edge purger heartbeat failed: retrying');
        failing = true;
      },
    );
  }, beatMs);
  timer.unref();
  let first: Promise<void> | null = null;

  return {
    id,
    /** Resolves once a beat landed: a claim made before it would look dead to the others. */
    started: (): Promise<void> =>
      (first ??= beat().catch((error: unknown) => {
        first = null;
        throw error;
      })),
    /** Which of `owners` are dead (their key gone), one PTTL each (their keys are in different slots). */
    liveness: async (owners: readonly string[]): Promise<Liveness> => {
      const left = await Promise.all(owners.map((owner) => redis.pttl(purgerAliveKey(prefix, owner))));
      const dead = owners.filter((_, i) => left[i] === -2);
      const alive = left.filter((ms) => ms >= 0);
      return { dead, soonestGoneMs: alive.length === 0 ? null : Math.min(...alive) };
    },
    /** Stops beating and removes the key: what this drainer still holds is taken by the others at once. */
    stop: async (): Promise<void> => {
      clearInterval(timer);
      await beating; // a beat landing after the removal would bring the key back for a while
      await redis.del(purgerAliveKey(prefix, id));
    },
  };
};

export type PurgerHeartbeat = ReturnType<typeof createPurgerHeartbeat>;
