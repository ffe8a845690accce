// The metrics and the autoscaling endpoint the operator's kit relies on, with exact values: lag
// per partition, the backlog, rebuild progress, Redis memory and policy, readiness, and the
// projector jobs retried and failed.
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProgressKey } from '../../projections/store/control/keys.ts';
import { recordRebuildProgress } from '../../src/store/control/rebuildProgress.ts';
import { takeRebuildLock } from '../../src/store/control/rebuildLock.ts';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { createProjectorMetrics, type ProjectorMetrics } from '../../src/projector/projectorMetrics.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { runPartition } from '../../src/projector/runPartition.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const log = pino({ level: 'silent' });
/** The first slug of the form `<stem><n>` in `partition` of 2. */
const slugIn = (partition: number, stem: string) => {
  for (let n = 0; ; n++) if (partitionOf(`${stem}${n}`, 2) === partition) return `${stem}${n}`;
};

describe('the operator metrics', () => {
  let env: ProjectorEnv;
  let registry: Registry;
  let metrics: ProjectorMetrics;
  let operator: ReturnType<typeof request>;
  const scrape = async () => (await operator.get('/metrics').expect(200)).text;
  const [p0, p1] = [slugIn(0, 'zero'), slugIn(1, 'one')];

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:00Z' });
    registry = new Registry();
    metrics = createProjectorMetrics(registry, { db: env.t.db, redis: env.redis, prefix: env.prefix, log });
    operator = request(
      buildOperatorApp({ db: env.t.db, redis: env.redis, prefix: env.prefix, registry, log, clock: env.now }),
    );
    await env.append(
      pageConfigured(p0),
      monitorConfigured(p0, 1),
      pageConfigured(p1),
      monitorConfigured(p1, 2),
    );
    await env.project();
  });
  afterAll(() => env.close());

  it('reports the backlog per partition and in one number, and GET /v1/autoscale says the same', async () => {
    await env.append(
      check(p0, 1, '2026-11-22T11:57:00Z'),
      check(p0, 1, '2026-11-22T11:58:00Z'),
      check(p0, 1, '2026-11-22T11:59:00Z'),
      check(p1, 2, '2026-11-22T11:59:00Z'),
    );
    const text = await scrape();
    expect(text).toContain('\nprojector_partition_lag_events{partition="0"} 3\n');
    expect(text).toContain('\nprojector_partition_lag_events{partition="1"} 1\n');
    expect(text).toContain('\nprojector_lag_events 4\n');
    expect(text).toContain('\nprojector_log_position 8\n');
    const figures = (await operator.get('/v1/autoscale').expect(200)).body as Record<string, number>;
    expect(figures).toMatchObject({
      backlog_events: 4,
      partitions: 2,
      partitions_behind: 2,
      max_partition_lag_events: 3,
    });
    expect(figures['lag_seconds']).toBeGreaterThan(0);
    expect(Object.keys(figures).sort()).toEqual([
      'backlog_events',
      'lag_seconds',
      'max_partition_lag_events',
      'partitions',
      'partitions_behind',
    ]);

    // Projecting counts the pages it renders and empties the backlog.
    const active = (await readActive(env.redis, env.prefix))!;
    const deps = { ...env.deps, onRender: metrics.onRender };
    for (const partition of [0, 1])
      await runPartition(
        deps,
        { prefix: env.prefix, version: active.version, partition, partitions: 2 },
        { mode: 'continuous' },
      );
    const after = await scrape();
    expect(after).toContain('\nprojector_partition_lag_events{partition="0"} 0\n');
    expect(after).toContain('\nprojector_partition_lag_seconds{partition="1"} 0\n');
    expect(Number(/\nprojector_renders_total (\d+)\n/.exec(after)?.[1])).toBeGreaterThanOrEqual(2);
  });

  it('shows a running rebuild, how far it got and how long since it moved on; nothing once it ended', async () => {
    expect(await scrape()).toContain('\nprojector_rebuild_running 0\n');
    const lock = (await takeRebuildLock(env.redis, env.prefix))!;
    const longAgo = Date.now() - 700_000;
    await recordRebuildProgress(env.redis, env.prefix, 99, () => longAgo).record(1234, true);
    const text = await scrape();
    expect(text).toContain('\nprojector_rebuild_running 1\n');
    expect(text).toContain('\nprojector_rebuild_events_replayed 1234\n');
    expect(
      Number(/\nprojector_rebuild_progress_age_seconds ([\d.]+)\n/.exec(text)?.[1]),
    ).toBeGreaterThanOrEqual(700);
    await lock.release();
    await env.redis.del(rebuildProgressKey(env.prefix));

    await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    expect(await env.redis.exists(rebuildProgressKey(env.prefix))).toBe(0);
    const ended = await scrape();
    expect(ended).toContain('\nprojector_rebuild_running 0\n');
    expect(ended).toContain('\nprojector_rebuild_progress_age_seconds 0\n');
  });

  it('reads Redis memory and policy, and readiness, as the server reports them', async () => {
    const maxmemory = ((await env.redis.config('GET', 'maxmemory')) as string[])[1];
    const text = await scrape();
    const server = /\nredis_memory_max_bytes\{server="([^"]+)"\} (\d+)\n/.exec(text);
    expect(server?.[2]).toBe(maxmemory);
    expect(text).toContain(`\nredis_maxmemory_policy_noeviction{server="${server?.[1]}"} 1\n`);
    expect(
      Number(new RegExp(`\\nredis_memory_used_bytes\\{server="${server?.[1]}"\\} (\\d+)\\n`).exec(text)?.[1]),
    ).toBeGreaterThan(0);
    expect(text).toContain('\nreadiness_dependency_up{dependency="postgres"} 1\n');
    expect(text).toContain('\nreadiness_dependency_up{dependency="redis"} 1\n');
    for (const collector of ['rebuild', 'redis_memory', 'readiness'])
      expect(text).toContain(`\nmetrics_collector_failed{collector="${collector}"} 0\n`);
  });

  it('counts a job retried after its first failure and failed after its last', async () => {
    const connection = env.redis;
    const name = `${env.prefix}-jobs`;
    const queue = new Queue(name, { connection });
    const worker = new Worker<{ partition: number }, number>(
      name,
      (): Promise<number> => Promise.reject(new Error('a bug')),
      { connection },
    );
    metrics.watchWorker(worker);
    let failures = 0;
    const bothFailed = new Promise<void>((resolve) =>
      worker.on('failed', () => {
        failures += 1;
        if (failures === 2) resolve();
      }),
    );
    await queue.add('project', { partition: 0 }, { attempts: 2 });
    await bothFailed;
    const text = await scrape();
    expect(text).toContain('\nprojector_jobs_retried_total 1\n');
    expect(text).toContain('\nprojector_jobs_failed_total 1\n');
    expect(text).toContain('\nprojector_jobs_stalled_total 0\n');
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
  });
});
