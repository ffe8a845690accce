// Redis losing part of the active version is detected, logged, counted and repaired by a rebuild
// of the whole version, instead of freezing a partition (its checkpoint gone, read as "fenced")
// or rendering a page as deleted (its document gone, so its next event starts from nothing).
// Workers refuse a Redis that may evict keys.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionKeys } from '../../projections/store/control/keys.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { pageStateKeys } from '../../projections/pageState/keys.ts';
import { requireNoEviction, RedisEvicts } from '../../src/store/evictionPolicy.ts';
import { projectPartition, type JobContext } from '../../src/projector/projectPartition.ts';
import { createProjectorMetrics } from '../../src/projector/projectorMetrics.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, twoPagesWithChecks } from '../support/events.ts';
import { dumpVersion, keysOf, assembledJson } from '../support/readModels.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('partial loss of the read models', () => {
  let env: ProjectorEnv;
  let ctx: JobContext;
  let registry: Registry;
  const losses: string[] = [];
  const alpha = () => partitionOf('alpha', env.partitions);

  /** Runs every partition's job once, as the workers would. */
  const runJobs = async () => {
    for (let p = 0; p < env.partitions; p += 1) await projectPartition(ctx, p);
    await env.project();
  };
  /** The models equal a clean rebuild of the same log. */
  const expectEqualToRebuild = async () => {
    const active = (await readActive(env.redis, env.prefix))!;
    const served = await dumpVersion(env.redis, env.prefix, active.version);
    const clean = await rebuild(env.deps, { prefix: env.prefix, partitions: env.partitions, graceMs: 0 });
    expect(await dumpVersion(env.redis, env.prefix, clean.version)).toEqual(served);
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:00Z' });
    registry = new Registry();
    const metrics = createProjectorMetrics(registry, {
      db: env.t.db,
      redis: env.redis,
      prefix: env.prefix,
      log: env.deps.log,
    });
    ctx = {
      ...env.deps,
      prefix: env.prefix,
      partitions: env.partitions,
      requeue: () => Promise.resolve(),
      onLoss: (kind) => {
        losses.push(kind);
        metrics.onLoss(kind);
      },
    };
    await env.append(...twoPagesWithChecks());
    await env.project();
  });
  afterAll(() => env.close());

  it('rebuilds a version whose partition lost its checkpoint, instead of freezing the partition', async () => {
    const before = (await readActive(env.redis, env.prefix))!;
    await env.redis.del(partitionKeys(await env.tagOf(alpha())).checkpoint);
    await env.append(check('alpha', 1, '2026-11-22T11:01:00Z', 'up', 120));
    await runJobs();
    expect(losses).toEqual(['checkpoint']);
    expect((await readActive(env.redis, env.prefix))!.version).toBe(before.version + 1);
    const charts = await assembledJson(env, 'alpha', 'charts');
    expect((charts.monitors as { avg_response_time_today: number }[])[0]!.avg_response_time_today).toBe(100);
    await expectEqualToRebuild();
  });

  it('rebuilds a version that lost a page document, instead of rendering the page as deleted', async () => {
    losses.length = 0;
    const before = (await readActive(env.redis, env.prefix))!;
    await env.redis.del(pageStateKeys({ tag: await env.tagOf(alpha()), slug: 'alpha' }).state);
    await env.append({
      type: 'incident.opened',
      page: 'alpha',
      at: '2026-11-22T11:30:00Z',
      data: { incident_id: 'i1', title: 'Slow', message: 'Looking' },
    });
    await runJobs();
    expect(losses).toEqual(['page_state']);
    expect((await readActive(env.redis, env.prefix))!.version).toBe(before.version + 1);
    const keys = await keysOf(env, 'alpha');
    expect(JSON.parse((await env.redis.get(keys.state))!)).toMatchObject({ deleted: false });
    expect(await env.redis.hexists(keys.incidentDocs, 'i1')).toBe(1);
    const charts = await assembledJson(env, 'alpha', 'charts');
    expect((charts.monitors as unknown[]).length).toBe(1); // its monitor too, not a deleted page
    expect(await registry.metrics()).toContain('projector_models_lost_total{kind="page_state"} 1');
    await expectEqualToRebuild();
  });
});

describe('a Redis that may evict keys', () => {
  let evicting: RedisServer;
  beforeAll(async () => {
    evicting = await startRedisServer({ settings: { 'maxmemory-policy': 'allkeys-lru' } });
  });
  afterAll(() => evicting.stop());

  it('is refused by name, and a noeviction one accepted', async () => {
    const client = new Redis(evicting.url);
    try {
      await expect(requireNoEviction(client)).rejects.toThrow(RedisEvicts);
      await expect(requireNoEviction(client)).rejects.toThrow(
        `Redis maxmemory-policy must be noeviction (127.0.0.1:${evicting.port} has allkeys-lru)`,
      );
      await client.config('SET', 'maxmemory-policy', 'noeviction');
      await expect(requireNoEviction(client)).resolves.toBeUndefined();
      await client.config('SET', 'maxmemory-policy', 'volatile-lru');
    } finally {
      client.disconnect();
    }
  });

  it('stops `npm run work` at start with the message and exit code 78', async () => {
    const { freshDatabase } = await import('../support/testEnv.ts');
    const t = await freshDatabase();
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'work'], {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: t.url,
          REDIS_URL: evicting.url,
          WORKER_PROBE_PORT: '0',
          LOG_LEVEL: 'error',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(stderr).toContain('Redis maxmemory-policy must be noeviction');
      expect(stderr).toContain('has volatile-lru');
      expect(code).toBe(78);
    } finally {
      await t.close();
    }
  });
});
