// Every event ingest admits at the edges of its bounds projects, serves and rebuilds: no dead
// letter, every endpoint answers, and `npm run rebuild` over that log exits 0.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.ts';
import { acceptedEdgeEvents, EDGE_NOW } from '../support/edgeEvents.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIGGEST = Number.MAX_SAFE_INTEGER;

const daysOf = (month: string, count: number, counted: (day: number) => boolean) =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `${month}-${String(i + 1).padStart(2, '0')}`,
      counted(i + 1) ? 1 : 0,
    ]),
  );

/** `npm run rebuild` against the test's database and prefix; resolves with its exit code. */
const runRebuild = (env: ProjectorEnv) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    let stderr = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'rebuild'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: env.t.url,
        REDIS_URL: inject('redisUrl'),
        REDIS_PREFIX: env.prefix,
        PROJECTOR_PARTITIONS: String(env.partitions),
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('exit', (code) => {
      resolve({ code, stderr });
    });
  });

describe('events at the edges of the bounds', () => {
  let env: ProjectorEnv;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: EDGE_NOW });
    await env.append(...acceptedEdgeEvents());
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    api = request(appOf(env, config));
  });
  afterAll(() => env.close());

  const expectServed = async () => {
    const get = async (path: string) => {
      const res = await api.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return res.body as unknown;
    };
    expect(await get('/api/status-pages/edge/incidents/daily-counts?month=2000-01')).toEqual({
      counts: daysOf('2000-01', 31, (day) => day === 1),
      start_date: '2000-01-01',
      end_date: '2000-01-31',
    });
    expect(await get('/api/status-pages/edge/maintenances/daily-counts?month=2036-11')).toEqual({
      counts: daysOf('2036-11', 30, (day) => day <= 22),
      start_date: '2036-11-01',
      end_date: '2036-11-30',
    });
    expect(await get('/api/status-pages/edge/maintenances/filter?month=2000-01')).toMatchObject({
      total_items: 1,
    });
    expect(await get('/api/status-pages/edge/incidents')).toMatchObject({ total_items: 1 });
    expect(await get('/api/status-pages/edge/maintenances')).toMatchObject({ total_items: 2 });
    await get('/api/status/edge/charts');
    await get('/api/status-page/edge/minute-data');
    await get('/api/embed/status?slug=edge&inc=1&rtm=240&upd=30');
    await get('/api/embed/markdown?slug=edge');
    for (const period of ['24h', '7d', '30d', '90d', '1y']) {
      await get(`/api/status-pages/edge/monitors/9001/availability?period=${period}`);
      await get(`/api/status-pages/edge/monitors/${String(BIGGEST)}/availability?period=${period}`);
    }
  };

  it('projects them all, with no dead letter, and serves every endpoint', async () => {
    const dead = await env.t.db.oneFirst(
      sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM dead_letters`,
    );
    expect(dead).toBe(0);
    await expectServed();
    // The down check of 2000 holds until the late one just before now: a whole year down.
    const year = await api.get('/api/status-pages/edge/monitors/9001/availability?period=1y');
    expect(year.body).toMatchObject({
      availability: { downtime_seconds: 31_536_000, incident_count: 1, uptime_percentage: 0 },
    });
  });

  it('npm run rebuild exits 0 over them and the rebuilt models serve every endpoint', async () => {
    const result = await runRebuild(env);
    expect(result).toEqual({ code: 0, stderr: '' });
    await expectServed();
  });
});
