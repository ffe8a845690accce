import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent } from '../../src/demo/demoAgent.ts';
import { loadDemo, type LoadDemoResult } from '../../src/demo/loadDemo.ts';
import { assembledJson, availabilityJson, keysOf } from '../support/readModels.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

// 50 s past the minute: every monitor's check of the current minute (offsets 0–35 s) is due.
const NOW = '2026-11-22T12:00:50Z';
const DAY_MIN = 24 * 60;
// The demo's interval rules: every 5 min for days 90..2 before now, every minute for the last 2
// days (both ends included).
const CHECKS_PER_MONITOR = (88 * DAY_MIN) / 5 + 2 * DAY_MIN + 1;
const INCIDENT_EVENTS = 6 * 4 + 1; // six resolved incidents with four updates, one just opened
const MAINTENANCE_EVENTS = 6 + 4; // six scheduled, two started, one completed, one cancelled
const TOTAL = 1 + 6 + 6 * CHECKS_PER_MONITOR + INCIDENT_EVENTS + MAINTENANCE_EVENTS;

const Count = z.object({ type: z.string(), n: z.number() });

describe('the demo page', () => {
  let env: ProjectorEnv;
  let first: LoadDemoResult;
  const progress: string[] = [];

  beforeAll(async () => {
    // Projected in batches of 5,000, as the workers of `npm start` do (PROJECTOR_BATCH_SIZE): in the
    // test default of 500, its 170,000 events took five times as long, for the same models.
    env = await startProjectorEnv({ now: NOW, partitions: 2, batchSize: 5000 });
    first = await loadDemo({
      db: env.t.db,
      clock: env.now,
      progress: { write: (text) => progress.push(text) },
    });
  });
  afterAll(() => env.close());

  it('appends exactly the expected events through the write path', async () => {
    expect(first).toMatchObject({ events: TOTAL, accepted: TOTAL, duplicates: 0, skipped: false });
    const counts = await env.t.db.any(
      sql.type(
        Count,
      )`SELECT type, count(*)::int AS n FROM event_log WHERE page = 'demo' GROUP BY type ORDER BY type`,
    );
    expect(Object.fromEntries(counts.map((c) => [c.type, c.n]))).toEqual({
      'check.recorded': 6 * CHECKS_PER_MONITOR,
      'incident.opened': 7,
      'incident.updated': 6 * 3,
      'maintenance.cancelled': 1,
      'maintenance.completed': 1,
      'maintenance.scheduled': 6,
      'maintenance.started': 2,
      'monitor.configured': 6,
      'page.configured': 1,
    });
    const model = await env.t.db.one(sql.type(
      z.object({ pages: z.number(), monitors: z.number(), incidents: z.number(), maintenances: z.number() }),
    )`SELECT (SELECT count(*) FROM pages)::int AS pages, (SELECT count(*) FROM monitors)::int AS monitors,
             (SELECT count(*) FROM incidents)::int AS incidents, (SELECT count(*) FROM maintenances)::int AS maintenances`);
    expect(model).toEqual({ pages: 1, monitors: 6, incidents: 7, maintenances: 6 });
    expect(progress.join('')).toContain('loading demo: 100%');
  });

  it('writes checks in order of `at` for every monitor', async () => {
    const disorder = await env.t.db.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM (
        SELECT at < lag(at) OVER (PARTITION BY data->>'monitor_id' ORDER BY position) AS back
        FROM event_log WHERE type = 'check.recorded') s WHERE back`);
    expect(disorder).toBe(0);
  });

  it('appends nothing new when loaded a second time', async () => {
    const again = await loadDemo({ db: env.t.db, clock: env.now, progress: { write: () => true } });
    expect(again).toMatchObject({ events: TOTAL, accepted: 0, duplicates: TOTAL });
  });

  it('leaves a demo loaded at another instant alone', async () => {
    const later = await loadDemo({
      db: env.t.db,
      clock: () => new Date(Date.parse(NOW) + 3_600_000),
      progress: { write: () => true },
    });
    expect(later).toMatchObject({ accepted: 0, skipped: true });
  });

  it('projects into the story the welcome text promises', async () => {
    await env.project();
    const keys = await keysOf(env, 'demo');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body's shape is what is asserted
    const charts: any = await assembledJson(env, 'demo', 'charts');
    expect(charts.monitors.map((m: { name: string }) => m.name)).toEqual([
      'Website',
      'API',
      'Dashboard',
      'Database',
      'CDN',
      'DNS',
    ]);
    expect(charts.monitors[2].state).toBe('degraded'); // the active incident's Dashboard slowness
    expect(charts.overall).toBe('degraded_performance');
    expect(charts.globalDaily).toHaveLength(90);
    const incidents = await env.redis.zcard(keys.incidentList);
    expect(incidents).toBe(7);
    const statuses = Object.values(await env.redis.hgetall(keys.maintenanceDocs)).map(
      (doc) => JSON.parse(doc).status,
    );
    expect(statuses.sort()).toEqual([
      'cancelled',
      'completed',
      'completed',
      'in_progress',
      'scheduled',
      'scheduled',
    ]);
    const availability = await availabilityJson(env, 'demo', 4, '90d');
    expect(availability['availability']).toMatchObject({ incident_count: 1 });
  });

  it('keeps the page alive with fresh checks from the demo agent', async () => {
    const checks = () =>
      env.t.db.oneFirst(sql.type(z.object({ n: z.number() }))`
        SELECT count(*)::int AS n FROM event_log WHERE type = 'check.recorded'`);
    const before = await checks();
    const woken: string[][] = [];
    const started = Date.now();
    const agent = startDemoAgent({
      db: env.t.db,
      clock: () => new Date(Date.parse(NOW) + (Date.now() - started)),
      wake: (pages) => {
        woken.push(pages);
        return Promise.resolve();
      },
      log: pino({ level: 'silent' }),
      intervalMs: 50,
    });
    while (woken.length < 3 && Date.now() - started < 10_000) await sleep(20);
    await agent.stop();
    const appended = (await checks()) - before;
    expect(woken.length).toBeGreaterThanOrEqual(3);
    expect(woken[0]).toEqual(['demo']);
    expect(appended).toBe(6 * woken.length);
  });
});
