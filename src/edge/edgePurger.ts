// Drains the purge outboxes (src/edge/purgeOutbox.ts) to every configured edge, off the projection
// path: a commit queues its purges in Redis with its writes; this sends them, coalesced, retried
// with backoff, and removes them only once every edge accepted them (docs/operations.md, "Edge
// caching"). Any worker drains any partition, so a crashed worker's purges go out from another:
// as soon as its heartbeat is gone (src/edge/purgerHeartbeat.ts), its claims' lease as a backstop.
import type { Registry } from 'prom-client';
import type { RedisClient } from '../store/redisClient.ts';
import type { Logger } from '../shared/logger.ts';
import { createPurgeMetrics } from './purgeMetrics.ts';
import {
  claimOwners,
  claimPurges,
  dropClaims,
  purgeBacklog,
  retryClaims,
  type ClaimedPurge,
} from './purgeOutbox.ts';
import { createPurgerHeartbeat } from './purgerHeartbeat.ts';
import type { PurgeTarget } from './providers.ts';

/** The partitions whose outboxes are drained: the active version's (a rebuild's wait for it). */
export type LivePartitions = Readonly<{ version: number; tags: readonly string[] }>;

type PurgerOptions = Readonly<{
  redis: RedisClient;
  /** The deployment's Redis prefix: where this drainer's heartbeat key lives. */
  prefix: string;
  partitions: () => Promise<LivePartitions | null>;
  registry: Registry;
  log: Logger;
  /** After a commit queued purges: how long to gather more before draining. */
  coalesceMs?: number;
  /** How often every live outbox is looked at (purges another worker left, retries fallen due). */
  sweepMs?: number;
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** How long a claim is this drainer's before any other may take it, alive or not (the backstop to its heartbeat). */
  claimMs?: number;
  /** How long a newly active version waits before its purges go out (API processes switch over). */
  switchMs?: number;
  /** Wall clock (ms); tests move it to simulate a long outage. */
  clock?: () => number;
  /** Told of each accepted call: seconds since its oldest key was queued (the bench's p99). */
  onPurged?: (provider: string, seconds: number) => void;
}>;

// Long enough that every API process has heard the commit's announcement before the edge refetches
// (the refetch must see the new bytes), short enough for the 1 s purge budget.
const COALESCE_MS = 100;
const SWEEP_MS = 1_000;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
// Above a call's 5 s timeout (providers.ts): a claim is a call or a few per edge (edges in parallel);
// one that outlives it is only sent twice. A drainer that dies loses its claims sooner, with its
// heartbeat: the lease frees them only from a drainer that is alive but stuck.
const CLAIM_MS = 10_000;
// The API reads the active pointer at most once a second.
const SWITCH_MS = 1_500;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Hard keys first; a soft purge of a key purged hard in the same call is left out. */
const callsOf = (claims: readonly ClaimedPurge[], maxKeys: number) => {
  const hard = new Set(claims.filter((c) => c.hard).map((c) => c.key));
  const soft = new Set(claims.filter((c) => !c.hard && !hard.has(c.key)).map((c) => c.key));
  const since = new Map<string, number>();
  for (const c of claims) since.set(c.key, Math.min(since.get(c.key) ?? Infinity, c.since));
  const calls: { keys: string[]; hard: boolean; oldest: number }[] = [];
  for (const [keys, isHard] of [
    [[...hard], true],
    [[...soft], false],
  ] as const)
    for (let i = 0; i < keys.length; i += maxKeys) {
      const part = keys.slice(i, i + maxKeys);
      calls.push({ keys: part, hard: isHard, oldest: Math.min(...part.map((k) => since.get(k) ?? 0)) });
    }
  return calls;
};

export const createEdgePurger = (targets: readonly PurgeTarget[], options: PurgerOptions) => {
  const { redis, log } = options;
  const clock = options.clock ?? Date.now;
  const coalesceMs = options.coalesceMs ?? COALESCE_MS;
  const firstRetryMs = options.firstRetryMs ?? FIRST_RETRY_MS;
  const maxRetryMs = options.maxRetryMs ?? MAX_RETRY_MS;
  const claimMs = options.claimMs ?? CLAIM_MS;
  const switchMs = options.switchMs ?? SWITCH_MS;
  const metrics = createPurgeMetrics(options.registry, targets);
  // Keys taken per claim: one call to the edge that takes the most (a few to the others).
  const claimLimit = Math.max(...targets.map((t) => t.maxKeys));
  const heartbeat = createPurgerHeartbeat(redis, options.prefix, log);
  const timers = new Map<string, NodeJS.Timeout>();
  /** Per tag: a drain when the heartbeat of a drainer holding claims there would be gone. */
  const rechecks = new Map<string, NodeJS.Timeout>();
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let failedInARow = 0;
  /** While an edge refuses: no call before this (clock ms); sweeps try again after it. */
  let retryAfter = 0;
  let closed = false;
  /** The version drained and the one seen last, with when it was first seen. */
  let live: { version: number; tags: ReadonlySet<string> } | null = null;
  let seen: { version: number; tags: ReadonlySet<string>; since: number } | null = null;
  let looked = false;

  const backoffMs = (failures: number): number => {
    const base = Math.min(maxRetryMs, firstRetryMs * 2 ** (failures - 1));
    return Math.round(base * (0.8 + Math.random() * 0.4)); // jitter: workers do not retry in step
  };

  /**
   * The tags drained now: a version that becomes active while this process runs (a rebuild's, or
   * the first after Redis lost everything) only once the API processes have switched to it.
   */
  const liveTags = async (): Promise<ReadonlySet<string>> => {
    const now = await options.partitions();
    const atStart = !looked;
    looked = true;
    if (now === null) return new Set();
    if (seen?.version !== now.version)
      seen = { version: now.version, tags: new Set(now.tags), since: atStart ? -Infinity : clock() };
    if (live?.version === seen.version || clock() - seen.since >= switchMs) live = seen;
    return live?.tags ?? new Set();
  };

  /** Sends the claims to every edge; true when every edge accepted every call. */
  const sendAll = async (claims: readonly ClaimedPurge[]): Promise<boolean> => {
    const results = await Promise.all(
      targets.map(async ({ provider, maxKeys, send }) => {
        for (const call of callsOf(claims, maxKeys)) {
          try {
            await send(call.keys, call.hard);
          } catch (error) {
            metrics.failures.inc({ provider });
            if (failedInARow === 0)
              log.warn({ provider, err: errorText(error) }, 'edge purge failed: retrying with backoff');
            return false;
          }
          const seconds = Math.max(0, clock() - call.oldest) / 1000;
          metrics.purges.inc({ provider });
          metrics.keys.inc({ provider }, call.keys.length);
          metrics.seconds.observe({ provider }, seconds);
          options.onPurged?.(provider, seconds);
        }
        return true;
      }),
    );
    return results.every(Boolean);
  };

  /**
   * The drainers holding claims of `tag` that are dead; for those alive, a drain is due when their
   * heartbeat would be gone, so a drainer killed now is taken over within its heartbeat's TTL.
   */
  const deadOwners = async (tag: string): Promise<string[]> => {
    const others = (await claimOwners(redis, tag)).filter((owner) => owner !== heartbeat.id);
    if (others.length === 0) return [];
    const { dead, soonestGoneMs } = await heartbeat.liveness(others);
    if (soonestGoneMs !== null && !rechecks.has(tag) && !closed) {
      const timer = setTimeout(() => {
        rechecks.delete(tag);
        run(tag);
      }, soonestGoneMs + 5);
      rechecks.set(tag, timer);
    }
    if (dead.length > 0)
      log.info({ partition: tag, drainers: dead.length }, 'edge purges of a stopped worker taken over');
    return dead;
  };

  /** Claims and sends what `tag` holds until it is empty or an edge refuses. */
  const drain = async (tag: string): Promise<void> => {
    if (clock() < retryAfter || !(await liveTags()).has(tag)) return;
    await heartbeat.started();
    const dead = await deadOwners(tag);
    for (;;) {
      const now = clock();
      const claims = await claimPurges(redis, tag, {
        now,
        claimEnd: now + claimMs,
        limit: claimLimit,
        owner: heartbeat.id,
        deadOwners: dead,
      });
      if (claims.length === 0) return;
      if (!(await sendAll(claims))) {
        failedInARow += 1;
        retryAfter = clock() + backoffMs(failedInARow);
        await retryClaims(redis, tag, claims, retryAfter);
        return;
      }
      if (failedInARow > 0) log.info({ failures: failedInARow }, 'edge purges recovered');
      failedInARow = 0;
      await dropClaims(redis, tag, claims);
      if (claims.length < claimLimit) return;
    }
  };

  const run = (tag: string) => {
    if (closed) return;
    if (running.has(tag)) {
      again.add(tag); // woken meanwhile: what the run did not claim goes out after it
      return;
    }
    const done = drain(tag)
      .catch((error: unknown) =>
        log.warn({ partition: tag, err: errorText(error) }, 'edge purge drain failed'),
      )
      .finally(() => {
        running.delete(tag);
        if (again.delete(tag)) wake(tag);
      });
    running.set(tag, done);
  };

  /** Drains `tag` after the coalescing window (one window at a time: a page changing 50 times a second is purged a few times). */
  const wake = (tag: string) => {
    if (closed || timers.has(tag)) return;
    const timer = setTimeout(() => {
      timers.delete(tag);
      run(tag);
    }, coalesceMs);
    timers.set(tag, timer);
  };

  /** Every live outbox, and the backlog gauges. */
  const sweep = async (): Promise<void> => {
    const tags = [...(await liveTags())];
    for (const tag of tags) if (!timers.has(tag)) run(tag);
    const backlog = await purgeBacklog(redis, tags);
    metrics.pending.set(backlog.keys);
    metrics.oldest.set(backlog.oldest === null ? 0 : Math.max(0, clock() - backlog.oldest) / 1000);
  };

  let sweeping: Promise<void> = Promise.resolve();
  const sweepSoon = () => {
    sweeping = sweep().catch((error: unknown) =>
      log.warn({ err: errorText(error) }, 'edge purge sweep failed'),
    );
  };
  const sweepTimer = setInterval(sweepSoon, options.sweepMs ?? SWEEP_MS);
  sweepTimer.unref();
  sweepSoon(); // at start: what a stopped or crashed worker left goes out at once (its heartbeat gone)

  return {
    /** A commit queued purges in `tag`'s outbox: drain it after the coalescing window. */
    queued: (tag: string): void => wake(tag),
    /** Looks at every live outbox now and waits for the drains it started (tests, start-up). */
    sweepNow: async (): Promise<void> => {
      await sweep();
      await Promise.all(running.values());
    },
    /** What the live outboxes hold (queued or claimed). */
    backlog: async () => purgeBacklog(redis, [...(await liveTags())]),
    /** Stops draining; what is left stays in the outboxes for the next drainer. */
    close: async (): Promise<void> => {
      closed = true;
      clearInterval(sweepTimer);
      for (const timer of [...timers.values(), ...rechecks.values()]) clearTimeout(timer);
      timers.clear();
      rechecks.clear();
      await sweeping;
      await Promise.all(running.values());
      await heartbeat
        .stop()
        .catch((error: unknown) =>
          log.warn(
            { err: errorText(error) },
            'edge purger heartbeat not removed: its claims wait for its TTL',
          ),
        );
    },
  };
};

export type EdgePurger = ReturnType<typeof createEdgePurger>;
