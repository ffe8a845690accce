// Operating the projector: poison events, unknown event types, projection status, metrics, and
// read models rebuilt by the workers themselves after Redis lost them.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { sql } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.ts';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { projectPartition } from '../../src/projector/projectPartition.ts';
import { createProjectorMetrics } from '../../src/projector/projectorMetrics.ts';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { pageHash } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { assembledJson } from '../support/readModels.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';
import { dropRedisPrefix } from '../support/testEnv.ts';

describe('operating the projector', () => {
  let env: ProjectorEnv;
  const rawInsert = async (type: string, page: string, data: object) => {
    await env.t.db.query(sql.unsafe`SELECT ensure_check_partition('2026-11-01')`);
    await env.t.db.query(sql.unsafe`
      INSERT INTO event_log (type, page, page_hash, at, data)
      VALUES (${type}, ${page}, ${pageHash(page)}, '2026-11-22T11:00:00Z', ${JSON.stringify(data)}::jsonb)`);
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 1, now: '2026-11-22T12:00:00Z' });
    await env.append(pageConfigured('ops'), monitorConfigured('ops', 3));
  });
  afterAll(() => env.close());

  it('sends an event it cannot apply to dead_letters, quarantines its page and moves on; so does a rebuild', async () => {
    // Written behind the write side's back: a check without a status.
    await rawInsert('check.recorded', 'ops', { monitor_id: 3, response_time_ms: 5 });
    await rawInsert('page.renamed-in-a-future-version', 'ops', { anything: true });
    await env.append(check('ops', 3, '2026-11-22T11:30:00Z', 'up', 42));
    expect(await env.project()).toBe(5);
    const letters = await env.t.db.any(
      sql.type(
        z.object({ position: z.string(), error: z.string() }),
      )`SELECT position::text, error FROM dead_letters`,
    );
    expect(letters).toHaveLength(1); // the unknown type is skipped, not a dead letter
    expect(letters[0]!.position).toBe('3');
    expect(letters[0]!.error).toMatch(/^unreadable event: .*status/s);
    const charts = (await assembledJson(env, 'ops', 'charts')) as {
      monitors: { avg_response_time_today: number }[];
    };
    expect(charts.monitors[0]!.avg_response_time_today).toBe(42); // the later check was applied
    const quarantined = [
      {
        page: 'ops',
        kind: 'event',
        position: '3',
        error: letters[0]!.error,
        since: '2026-11-22T12:00:00.000Z',
      },
    ];
    expect((await projectionStatus(env.t.db, env.redis, env.prefix)).quarantined_pages).toEqual(quarantined);
    await expect(rebuild(env.deps, { prefix: env.prefix, partitions: 1, graceMs: 0 })).resolves.toEqual({
      version: 2,
      partitions: 1,
    });
    expect((await readActive(env.redis, env.prefix))!.version).toBe(2);
    expect((await projectionStatus(env.t.db, env.redis, env.prefix)).quarantined_pages).toEqual(quarantined);
    const rebuilt = (await assembledJson(env, 'ops', 'charts')) as {
      monitors: { avg_response_time_today: number }[];
    };
    expect(rebuilt.monitors[0]!.avg_response_time_today).toBe(42);
  });

  it('reports projection status and Prometheus metrics on the operator listener', async () => {
    const registry = new Registry();
    const metrics = createProjectorMetrics(registry, {
      db: env.t.db,
      redis: env.redis,
      prefix: env.prefix,
      log: pino({ level: 'silent' }),
    });
    metrics.onBatch({ partition: 0, events: 5, seconds: 0.01 });
    const app = buildOperatorApp({
      db: env.t.db,
      redis: env.redis,
      prefix: env.prefix,
      registry,
      log: pino({ level: 'silent' }),
      clock: env.now,
    });
    const status = await request(app).get('/v1/projection-status');
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      log_position: '5',
      projected_position: '5',
      lag_events: 0,
      lag_seconds: 0,
      quarantined_pages: [expect.objectContaining({ page: 'ops', position: '3' })],
    });
    await env.append(check('ops', 3, '2026-11-22T11:31:00Z', 'up', 40));
    const behind = await request(app).get('/v1/projection-status');
    expect(behind.body).toMatchObject({ log_position: '6', projected_position: '5', lag_events: 1 });
    const text = (await request(app).get('/metrics')).text;
    expect(text).toContain('projector_events_projected_total{partition="0"} 5');
    expect(text).toContain('projector_lag_events 1');
    expect(text).toContain('projector_dead_letters 2'); // met by version 1, then by the rebuild
    expect(text).toContain('projector_quarantined_pages 1');
    expect(text).toMatch(/projector_batch_duration_seconds_count 1/);
    await env.project();
  });

  it('answers 503 while the read models are missing, and the workers rebuild them', async () => {
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, REDIS_PREFIX: env.prefix });
    const app = appOf(env, config);
    expect((await request(app).get('/api/status/ops/charts')).status).toBe(200);
    await dropRedisPrefix(env.redis, env.prefix); // Redis lost everything
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the API caches the pointer for 1 s
    const lost = await request(app).get('/api/status/ops/charts');
    expect(lost.status).toBe(503);
    expect(lost.body).toEqual({ error: 'service unavailable' });
    expect(lost.headers['retry-after']).toBeDefined();
    // A projector job notices and rebuilds (the poison event removed first, as an operator
    // would after reading dead_letters, so the page leaves the quarantine).
    await env.t.db.query(sql.unsafe`DELETE FROM event_log WHERE position = 3`);
    const ctx = { ...env.deps, prefix: env.prefix, partitions: 1, requeue: () => Promise.resolve() };
    await projectPartition(ctx, 0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const back = await request(app).get('/api/status/ops/charts');
    expect(back.status).toBe(200);
    expect(back.body.monitors[0].avg_response_time_today).toBe(41); // (42 + 40) / 2
  });
});

describe('projection status with idle partitions', () => {
  it('counts only the events each partition still has to project', async () => {
    const env = await startProjectorEnv({ partitions: 3, now: '2026-11-22T12:00:00Z' });
    try {
      await env.append(
        pageConfigured('solo'),
        monitorConfigured('solo', 8),
        check('solo', 8, '2026-11-22T11:59:00Z'),
      );
      const active = (await readActive(env.redis, env.prefix))!;
      const mine = pageHash('solo') % 3;
      const ref = { prefix: env.prefix, version: active.version, partition: mine, partitions: 3 };
      const { runPartition } = await import('../../src/projector/runPartition.ts');
      // Other databases of the server may hold its oldest open transaction back for a moment.
      for (
        let tries = 0;
        (await runPartition(env.deps, ref, { mode: 'continuous' })).events < 3;
        tries += 1
      ) {
        if (tries > 200) throw new Error('the events never became readable');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The two other partitions have not run at all, but none of these events is theirs.
      const { projectionStatus } = await import('../../src/projector/projectionStatus.ts');
      expect(await projectionStatus(env.t.db, env.redis, env.prefix)).toEqual({
        log_position: '3',
        projected_position: '3',
        lag_events: 0,
        lag_seconds: 0,
        quarantined_pages: [],
      });
    } finally {
      await env.close();
    }
  });
});
