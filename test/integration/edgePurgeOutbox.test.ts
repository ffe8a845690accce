// The purge outbox as the projector fills it: each commit queues the purges it makes necessary
// with its own writes (a crash after it cannot lose them), the SLA render queues the reports it
// moved, and a rebuild queues every page it renders, sent only once its version is active.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activePartitions } from '../../src/edge/activePartitions.ts';
import { createEdgePurger } from '../../src/edge/edgePurger.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { renderSla } from '../../src/readModels/sla/renderSla.ts';
import { commitWrites } from '../../src/store/control/commitWrites.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { partitionKeys } from '../../projections/store/control/keys.ts';
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
