// The answers assembled when read (charts, minute-data, rtm, upd) and the stored ones that still
// move with the clock (maintenances, availability) after an hour of checks and ticks projected
// minute by minute: byte for byte what a clean rebuild answers at the same instant. And the cost
// they save: a check that changes no status, and a minute that moves no due figure, render nothing.
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import type { ProjectorDeps } from '../../src/projector/runPartition.ts';
import { MINUTE_MS } from '../../src/shared/time.ts';
import { elevenApiPaths } from '../support/apiPaths.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { dumpVersion, keysOf } from '../support/readModels.ts';
import { readActive } from '../../src/store/control/versions.ts';

const START = Date.parse('2026-11-22T11:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const maintenance = {
  type: 'maintenance.scheduled',
  page: 'live',
  at: '2026-11-22T10:00:00Z',
  data: {
    maintenance_id: 'm1',
    title: 'Upgrade',
    scheduled_start: '2026-11-22T11:20:00Z',
    scheduled_end: '2026-11-22T11:40:00Z',
    components: ['DB'],
  },
};

const paths = [
  ...elevenApiPaths('live', 2, { embedQuery: '&inc=1&rtm=60&upd=30', period: '24h' }),
  '/api/embed/status?slug=live&rtm=240',
  '/api/status-pages/live/monitors/1/availability?period=7d',
  '/api/status-pages/live/monitors/3/availability?period=24h',
  '/badge/live.svg',
  '/s/live/api/v2/summary.json',
  '/s/live/api/v2/components.json',
  '/s/live/feed.atom',
];

describe('answers assembled when read', () => {
  let env: ProjectorEnv;
  let renders = 0;
  const answers = async () => {
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    const app = buildApp({
      redis: env.redis,
      prefix: env.prefix,
      config,
      log: pino({ level: 'silent' }),
      clock: env.now,
    });
    const out: [string, number, string, string | undefined][] = [];
    for (const path of paths) {
      const res = await request(app).get(path).buffer(true);
      out.push([path, res.status, res.text ?? String(res.body), res.headers['etag']]);
    }
    return out;
  };
  const dump = async () =>
    dumpVersion(env.redis, env.prefix, (await readActive(env.redis, env.prefix))!.version);

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: iso(START) });
    (env.deps as { onRender?: ProjectorDeps['onRender'] }).onRender = (pages) => (renders += pages);
    await env.append(
      pageConfigured('live', { plan: 'business' }, '2026-11-22T10:00:00Z'),
      monitorConfigured('live', 1, { name: 'API', impact: 'major' }, '2026-11-22T10:00:00Z'),
      monitorConfigured('live', 2, { name: 'Web', impact: 'partial' }, '2026-11-22T10:00:00Z'),
      monitorConfigured('live', 3, { name: 'DB', impact: 'degraded' }, '2026-11-22T10:00:00Z'),
      maintenance,
    );
    await env.project();
  });
  afterAll(() => env.close());

  it('renders nothing for checks that change no status, nor for a minute that moves no due figure', async () => {
    await env.append(
      check('live', 1, iso(START + 5_000), 'up', 100),
      check('live', 2, iso(START + 6_000), 'up', 80),
    );
    await env.project(); // first checks: a status appears
    const before = renders;
    await env.append(
      check('live', 1, iso(START + 20_000), 'up', 120),
      check('live', 2, iso(START + 21_000), 'up', 90),
    );
    await env.project();
    expect(renders).toBe(before);
    const embed = await env.redis.hget((await keysOf(env, 'live')).embed, 'rev');
    env.setNow(START + MINUTE_MS + 1_000); // a new minute, nothing due before 11:20
    await env.project();
    expect(renders).toBe(before);
    expect(await env.redis.hget((await keysOf(env, 'live')).embed, 'rev')).toBe(embed);
    env.setNow(START + MINUTE_MS + 2_000);
    await env.append(check('live', 2, iso(START + MINUTE_MS + 1_500), 'degraded', 900));
    await env.project(); // a status changed: one render
    expect(renders).toBe(before + 1);
  });

  it('answers byte for byte as a clean rebuild after an hour projected minute by minute', async () => {
    // Monitor 1 goes down for 7 minutes, monitor 2 flaps between up and degraded, monitor 3 checks
    // every other minute; the maintenance starts and ends on the way.
    for (let minute = 2; minute <= 62; minute += 1) {
      const at = START + minute * MINUTE_MS;
      const events = [
        check('live', 1, iso(at + 3_000), minute >= 30 && minute < 37 ? 'down' : 'up', 100 + minute),
        check('live', 2, iso(at + 9_000), minute % 5 === 0 ? 'degraded' : 'up', 200 + (minute % 7)),
        ...(minute % 2 === 0 ? [check('live', 3, iso(at + 30_000), 'up', 50)] : []),
      ];
      env.setNow(at + 40_000);
      await env.append(...events);
      await env.project();
    }
    env.setNow(START + 63 * MINUTE_MS + 17_000);
    await env.project(); // the tick of the last minute
    const live = await answers();
    expect(live.map(([path, status]) => [path, status])).toEqual(paths.map((path) => [path, 200]));
    const models = await dump();

    await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    expect(await answers()).toEqual(live);
    expect(await dump()).toEqual(models);
  });
});
