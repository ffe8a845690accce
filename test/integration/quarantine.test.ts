// A page whose render throws (a bug not found yet) is quarantined by itself: it is reported in
// /v1/projection-status and /metrics, the other pages of its partition keep updating, it leaves
// the quarantine once it renders again, and a rebuild completes and reports it.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { partitionKeys } from '../../projections/store/control/keys.ts';
import { pageStateKeys } from '../../projections/pageState/keys.ts';
import { createProjectorMetrics } from '../../src/projector/projectorMetrics.ts';
import { embedKeys } from '../../projections/embed/codec.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { assembledJson } from '../support/readModels.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const maintenance = (page: string, id: string) => ({
  type: 'maintenance.scheduled',
  page,
  at: '2026-11-22T11:00:00Z',
  data: {
    maintenance_id: id,
    title: 'Work',
    scheduled_start: '2026-11-23T00:00:00Z',
    scheduled_end: '2026-11-23T01:00:00Z',
  },
});

describe('a page whose render throws', () => {
  let env: ProjectorEnv;
  let operator: ReturnType<typeof request>;
  const avgToday = async (page: string) =>
    ((await assembledJson(env, page, 'charts')) as { monitors: { avg_response_time_today: number }[] })
      .monitors[0]!.avg_response_time_today;
  // What a render stores: a status change of the page's monitor is rendered.
  const overall = async (page: string) =>
    env.redis.get(embedKeys({ tag: await env.tagOf(0), slug: page }).overall);
  /** Stores a window in year 10000 in the page document, as a bug in evolving it might. */
  const corrupt = async (page: string) => {
    const tag = await env.tagOf(0);
    const key = pageStateKeys({ tag, slug: page }).stateMaintenances;
    const doc = JSON.parse((await env.redis.hget(key, 'w'))!) as object;
    const window = { scheduledStart: Date.UTC(10000, 0, 1), scheduledEnd: Date.UTC(10000, 0, 2) };
    await env.redis.hset(key, 'w', JSON.stringify({ ...doc, ...window }));
    await env.redis.sadd(partitionKeys(tag).dirtyMaintenances, page);
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 1, now: '2026-11-22T12:00:00Z' });
    await env.append(
      pageConfigured('sick'),
      monitorConfigured('sick', 1),
      maintenance('sick', 'w'),
      pageConfigured('well'),
      monitorConfigured('well', 2),
      check('well', 2, '2026-11-22T11:00:00Z', 'up', 100),
    );
    await env.project();
    const registry = new Registry();
    createProjectorMetrics(registry, {
      db: env.t.db,
      redis: env.redis,
      prefix: env.prefix,
      log: pino({ level: 'silent' }),
    });
    operator = request(
      buildOperatorApp({
        db: env.t.db,
        redis: env.redis,
        prefix: env.prefix,
        registry,
        log: pino({ level: 'silent' }),
        clock: env.now,
      }),
    );
  });
  afterAll(() => env.close());

  it('is quarantined alone and reported; the other pages keep updating', async () => {
    await corrupt('sick');
    await env.append(check('well', 2, '2026-11-22T11:30:00Z', 'down', 200));
    await env.project();
    await env.project(); // the scheduler's poll: a run with no new event renders what is left marked
    expect(await avgToday('well')).toBe(150);
    expect(await overall('well')).toBe('major_outage'); // its only monitor, the default impact
    const status = await operator.get('/v1/projection-status');
    expect(status.body.quarantined_pages).toEqual([
      {
        page: 'sick',
        kind: 'render',
        position: expect.stringMatching(/^\d+:\d+$/), // the checkpoint the render read the page at
        error: 'invalid month "10000-01"',
        since: '2026-11-22T12:00:00.000Z',
      },
    ]);
    expect((await operator.get('/metrics')).text).toContain('projector_quarantined_pages 1');
    // Its marks were consumed: it is not retried on every pass, only on its next event.
    await env.append(check('well', 2, '2026-11-22T11:40:00Z', 'up', 300));
    await env.project();
    expect(await avgToday('well')).toBe(200);
    expect(await overall('well')).toBe('operational');
  });

  it('leaves the quarantine once it renders again', async () => {
    await env.append({
      ...maintenance('sick', 'w'),
      type: 'maintenance.updated',
      data: {
        maintenance_id: 'w',
        scheduled_start: '2026-11-23T00:00:00Z',
        scheduled_end: '2026-11-23T02:00:00Z',
      },
    });
    await env.project();
    expect((await operator.get('/v1/projection-status')).body.quarantined_pages).toEqual([]);
  });
});
