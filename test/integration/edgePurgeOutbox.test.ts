// The purge outbox as the projector fills it: each commit queues the purges it makes necessary
// with its own writes (a crash after it cannot lose them), the SLA render queues the reports it
// moved, and a rebuild queues every page it renders, sent only once its version is active. And
// its claims: each records its drainer; a dead drainer's claims are taken back at once, a live
// one's only when their lease ends.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activePartitions } from '../../src/edge/activePartitions.ts';
import { createEdgePurger } from '../../src/edge/edgePurger.ts';
import { claimOwners, claimPurges, dropClaims } from '../../src/edge/purgeOutbox.ts';
import { createPurgerHeartbeat } from '../../src/edge/purgerHeartbeat.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { renderSla } from '../../src/readModels/sla/renderSla.ts';
import { commitWrites } from '../../src/store/control/commitWrites.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { partitionKeys, partitionTag } from '../../projections/store/control/keys.ts';
import { queuePurges } from '../../projections/store/control/purgeWrites.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';
import { markSlaDirty } from '../../projections/sla/writes.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = pino({ level: 'silent' });

describe('the purge outbox', () => {
  let env: ProjectorEnv;
  beforeEach(async () => {
    env = await startProjectorEnv({ partitions: 1, now: '2026-11-22T12:00:30Z' });
    Object.assign(env.deps, { edgePurge: {} }); // queued, never drained here
  });
  afterEach(() => env.close());

  /** What the partition's outbox holds (queued or claimed), sorted. */
  const outbox = async () => {
    const keys = partitionKeys(await env.tagOf(0));
    return (await env.redis.zrange(keys.purges, 0, -1)).sort();
  };
  const empty = async () => env.redis.del(partitionKeys(await env.tagOf(0)).purges);
  const project = async (...events: object[]) => {
    await env.append(...events);
    await env.project();
  };

  it('gets what each commit made stale with the commit: hard for page events, the checks key for checks', async () => {
    await project(
      pageConfigured('acme'),
      monitorConfigured('acme', 1),
      check('acme', 1, '2026-11-22T11:00:00Z'),
      pageConfigured('beta', { auth_token: 'a-private-page-token-0123' }),
    );
    // The pages' SLA summaries were computed too: their reports carry the checks key.
    expect(await outbox()).toEqual([
      'h:page-acme',
      'h:page-beta',
      's:page-acme.checks',
      's:page-beta.checks',
    ]);
    await empty();
    await project(check('acme', 1, '2026-11-22T11:01:00Z')); // no status change: assembled when read
    expect(await outbox()).toEqual(['s:page-acme.checks']);
    await empty();
    await project(check('acme', 1, '2026-11-22T11:02:00Z', 'down')); // status change: rendered at once
    expect(await outbox()).toEqual(['s:page-acme.checks']);
    await empty();
    await project({
      type: 'incident.opened',
      page: 'acme',
      at: '2026-11-22T11:03:00Z',
      data: { incident_id: 'i1', title: 'Down', message: 'Looking', components: [] },
    });
    expect(await outbox()).toEqual(['s:page-acme']);
    await empty();
    await project({ type: 'page.deleted', page: 'beta', at: '2026-11-22T11:04:00Z', data: {} });
    expect(await outbox()).toEqual(['h:page-beta']);
  });

  it('gets the reports an SLA render moved', async () => {
    await project(
      pageConfigured('acme'),
      monitorConfigured('acme', 1),
      check('acme', 1, '2026-11-22T11:00:00Z'),
    );
    await empty();
    const tag = await env.tagOf(0);
    const checkpoint = (await env.redis.get(partitionKeys(tag).checkpoint))!;
    const fence = { tag, expected: checkpoint, next: null };
    expect(await commitWrites(env.redis, fence, [markSlaDirty(tag, 'acme', 0)])).toBe(true);
    const sla = { redis: env.redis, now: env.now().getTime(), log, edgePurge: {} };
    expect(await renderSla(sla, tag, false)).toBe(true);
    expect(await outbox()).toEqual(['s:page-acme.checks']);
  });
});

describe('a rebuild', () => {
  let env: ProjectorEnv;
  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:30Z' });
  });
  afterAll(() => env.close());

  it('purges every page it activates, hard for one that is not public, and none before', async () => {
    await env.append(
      pageConfigured('acme'),
      monitorConfigured('acme', 1),
      check('acme', 1, '2026-11-22T11:00:00Z'),
      pageConfigured('beta', { auth_token: 'a-private-page-token-0123' }),
      pageConfigured('gamma'),
      pageConfigured('delta', { blocked: true }),
    );
    await env.project(); // no edge purged yet: nothing queued
    const target = {
      provider: 'fastly' as const,
      maxKeys: 256,
      send: async (keys: readonly string[], hard: boolean) => {
        sent.push({
          keys: [...keys].sort(),
          hard,
          version: (await readActive(env.redis, env.prefix))!.version,
        });
      },
    };
    const sent: { keys: string[]; hard: boolean; version: number }[] = [];
    const purger = createEdgePurger([target], {
      redis: env.redis,
      prefix: env.prefix,
      partitions: activePartitions(
        createActiveVersionReader(env.redis, env.prefix, { ttlMs: 20 }),
        env.prefix,
      ),
      registry: new Registry(),
      log,
      sweepMs: 30,
      switchMs: 50,
    });
    try {
      const before = (await readActive(env.redis, env.prefix))!.version;
      const built = await rebuild(
        { ...env.deps, edgePurge: { queued: purger.queued } },
        {
          prefix: env.prefix,
          partitions: 2,
          graceMs: 0,
        },
      );
      expect(built.version).toBeGreaterThan(before);
      for (let tries = 0; sent.length < 2; tries += 1) {
        if (tries > 200) throw new Error('the rebuild’s purges never came');
        await sleep(25);
      }
      await purger.sweepNow();
      const hard = sent
        .filter((s) => s.hard)
        .flatMap((s) => s.keys)
        .sort();
      const soft = sent
        .filter((s) => !s.hard)
        .flatMap((s) => s.keys)
        .sort();
      expect({ hard, soft }).toEqual({
        hard: ['page-beta', 'page-delta'],
        soft: ['page-acme', 'page-gamma'],
      });
      expect(sent.every((s) => s.version === built.version)).toBe(true);
    } finally {
      await purger.close();
    }
  });
});

describe('claims of the purge outbox', () => {
  let redis: RedisClient;
  let prefix: string;
  let tag: string;
  beforeEach(async () => {
    redis = testRedis();
    prefix = freshRedisPrefix();
    tag = partitionTag(prefix, 1, 0);
    await redis.set(partitionKeys(tag).checkpoint, '0');
    const writes = queuePurges(tag, { hard: ['page-a'], soft: ['page-b', 'page-c'] }, 1_000);
    expect(await commitWrites(redis, { tag, expected: '0', next: '1' }, writes)).toBe(true);
  });
  afterEach(async () => {
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
  });

  const LEASE_END = 20_000;
  const claim = (owner: string, now: number, deadOwners: string[] = [], limit = 1) =>
    claimPurges(redis, tag, { now, claimEnd: LEASE_END, limit, owner, deadOwners });
  const members = (claims: readonly { hard: boolean; key: string }[]) =>
    claims.map((c) => `${c.hard ? 'h' : 's'}:${c.key}`);

  it('takes a dead drainer’s claims at once and a live one’s only when their lease ends', async () => {
    expect(members(await claim('alive', 10_000))).toEqual(['h:page-a']);
    expect(members(await claim('dead', 10_000))).toEqual(['s:page-b']);
    expect((await claimOwners(redis, tag)).sort()).toEqual(['alive', 'dead']);
    // Before either lease ends: the dead drainer's claim only, then what is still queued.
    const taken = await claim('other', 10_001, ['dead'], 2);
    expect(members(taken)).toEqual(['s:page-b', 's:page-c']);
    expect(taken.map((c) => c.since)).toEqual([1_000, 1_000]);
    expect(await claim('other', 10_002, ['dead'])).toEqual([]);
    expect((await claimOwners(redis, tag)).sort()).toEqual(['alive', 'other']);
    // The lease is the backstop: a drainer alive but stuck loses its claim when it ends.
    expect(members(await claim('third', LEASE_END))).toEqual(['h:page-a']);
    await dropClaims(redis, tag, taken); // accepted by the edge
    const keys = partitionKeys(tag);
    expect(await redis.zrange(keys.purgesClaimed, 0, -1)).toEqual(['1000|h:page-a']);
    expect(await redis.hgetall(keys.purgesOwners)).toEqual({ '1000|h:page-a': 'third' });
  });

  it('keeps a change queued again in the same millisecond as a claim in flight until that claim is settled', async () => {
    const [first] = await claim('alive', 10_000);
    expect(members([first!])).toEqual(['h:page-a']);
    // page-a changes again, committed in the millisecond of the first queueing (the claim's name).
    await redis.set(partitionKeys(tag).checkpoint, '1');
    const again = queuePurges(tag, { hard: ['page-a'], soft: [] }, 1_000);
    expect(await commitWrites(redis, { tag, expected: '1', next: '2' }, again)).toBe(true);
    // Not claimed under the same name while the first is in flight: its acceptance would drop both.
    expect(members(await claim('other', 10_001, [], 3))).toEqual(['s:page-b', 's:page-c']);
    await dropClaims(redis, tag, [first!]); // the first purge accepted, possibly before the change
    expect(members(await claim('other', 10_002))).toEqual(['h:page-a']);
  });

  it('tells a drainer alive while it beats and dead once it stopped', async () => {
    const log = pino({ level: 'silent' });
    const drainer = createPurgerHeartbeat(redis, prefix, log);
    const other = createPurgerHeartbeat(redis, prefix, log);
    try {
      await drainer.started();
      const alive = await other.liveness([drainer.id, 'never-started']);
      expect(alive.dead).toEqual(['never-started']);
      expect(alive.soonestGoneMs).toBeGreaterThan(0);
      await drainer.stop();
      expect(await other.liveness([drainer.id])).toEqual({ dead: [drainer.id], soonestGoneMs: null });
    } finally {
      await other.stop();
    }
  });
});
