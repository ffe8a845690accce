// Every part of one answer comes from one log position: a charts answer never shows a monitor's
// state beside an overall status that other states make (decisions.md "Overall status"), nor a
// Statuspage document its components beside another position's `updated_at`, even between the
// commit of the batch that flips a monitor and the commit of the render that follows.
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildPublicHandler } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createReadCache } from '../../src/http/readCache.ts';
import { createSubscriber } from '../../src/store/subscriber.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const START = Date.parse('2026-11-22T11:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const log = pino({ level: 'silent' });
const config = () => loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
const CHARTS = '/api/status/flip/charts';
const STATUSPAGE = ['summary', 'status', 'components'].map((doc) => `/s/flip/api/v2/${doc}.json`);
const PATHS = [
  CHARTS,
  '/api/embed/status?slug=flip&inc=1',
  '/api/embed/status?slug=flip&rtm=5&upd=2',
  ...STATUSPAGE,
];

type Charts = { overall: string; monitors: { id: number; state: string }[] };

/** API (major) down: major_outage whatever Web says; else Web (partial) down: partial_outage. */
const overallOf = (charts: Charts): string => {
  const state = (id: number) => charts.monitors.find((m) => m.id === id)?.state;
  if (state(1) === 'down') return 'major_outage';
  if (state(2) === 'down') return 'partial_outage';
  return state(1) === 'degraded' || state(2) === 'degraded' ? 'degraded_performance' : 'operational';
};

type CommitWrites = (...args: unknown[]) => Promise<unknown>;

describe('one log position per answer', () => {
  let env: ProjectorEnv;
  let at = START;
  const closing: (() => Promise<void>)[] = [];
  /** Holds the projector's script commits from the `n`-th on until the returned release is called. */
  let holdFrom: number | null = null;
  let commits = 0;
  let held: (() => void)[] = [];

  const checkAndProject = async (monitor: number, status: string) => {
    at += 1_000;
    env.setNow(at + 200);
    await env.append(check('flip', monitor, iso(at), status, 100));
    await env.project();
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 1, now: iso(START) });
    await env.append(
      pageConfigured('flip', { plan: 'business' }, iso(START - 3_600_000)),
      monitorConfigured('flip', 1, { name: 'API', impact: 'major' }, iso(START - 3_600_000)),
      monitorConfigured('flip', 2, { name: 'Web', impact: 'partial' }, iso(START - 3_600_000)),
      check('flip', 1, iso(START - 60_000), 'up', 100),
      check('flip', 2, iso(START - 60_000), 'up', 100),
    );
    await env.project();
    // The projector's commits go through this client's script command: count them, hold some.
    const client = env.redis as unknown as { commitWrites: CommitWrites };
    const commit = client.commitWrites.bind(env.redis);
    client.commitWrites = (...args) => {
      commits += 1;
      if (holdFrom === null || commits < holdFrom) return commit(...args);
      return new Promise<void>((resolve) => held.push(resolve)).then(() => commit(...args));
    };
  });
  afterAll(async () => {
    for (const close of closing) await close();
    await env.close();
  });

  it("answers the flipped monitor's state with its overall while the batch is committed and its render is not", async () => {
    const newApp = () =>
      buildApp({ redis: env.redis, prefix: env.prefix, config: config(), log, clock: env.now });
    let app = newApp();
    const before = (await request(app).get(CHARTS)).body as Charts;
    expect([before.overall, overallOf(before)]).toEqual(['operational', 'operational']);

    commits = 0;
    holdFrom = 2; // the batch's commit goes through; the render's waits
    at += 1_000;
    env.setNow(at + 200);
    await env.append(check('flip', 1, iso(at), 'down', 100));
    const projecting = env.project();
    const answers = async () => Promise.all(PATHS.map(async (path) => (await request(app).get(path)).text));
    let between: string[];
    try {
      for (let tries = 0; tries < 10_000 && held.length === 0; tries += 1)
        await new Promise((resolve) => setImmediate(resolve));
      expect(held).toHaveLength(1); // the batch committed, its render is held
      between = await answers();
    } finally {
      holdFrom = null;
      for (const release of held) release();
      held = [];
      await projecting;
    }
    const charts = JSON.parse(between[0]!) as Charts;
    expect(charts.monitors.find((m) => m.id === 1)?.state).toBe('down');
    expect(charts.overall).toBe('major_outage');
    expect(JSON.parse(between[1]!)).toMatchObject({
      overall: 'major_outage',
      updated: iso(at).replace('.000Z', 'Z'),
    });
    // The Statuspage documents: the flipped component, the indicator and `updated_at` of the batch.
    const updatedAt = iso(at).replace('.000Z', 'Z');
    const component = { id: '1', name: 'API', status: 'major_outage', updated_at: updatedAt };
    expect(JSON.parse(between[3]!)).toMatchObject({
      page: { updated_at: updatedAt },
      status: { indicator: 'critical' },
      components: [component, { id: '2', status: 'operational', updated_at: updatedAt }],
    });
    expect(JSON.parse(between[4]!)).toMatchObject({
      page: { updated_at: updatedAt },
      status: { indicator: 'critical' },
    });
    expect(JSON.parse(between[5]!)).toMatchObject({
      page: { updated_at: updatedAt },
      components: [component, {}],
    });
    // Byte for byte what the render, once committed, gives, and what a clean rebuild gives.
    expect(await answers()).toEqual(between);
    await rebuild(env.deps, { prefix: env.prefix, partitions: 1, graceMs: 0 });
    app = newApp(); // a fresh API process: it finds the page in the rebuilt version
    expect(await answers()).toEqual(between);
  });

  it('never answers a charts body that contradicts itself while monitors flip', async () => {
    const subscriber = createSubscriber(env.redis, `${env.prefix}:api`, log);
    const cache = createReadCache(subscriber, env.prefix, { ttlMs: 1_000, maxBytes: 8 * 1024 * 1024 });
    await subscriber.ready();
    closing.push(async () => {
      cache.close();
      await subscriber.close();
    });
    const deps = { redis: env.redis, prefix: env.prefix, config: config(), log, clock: env.now };
    const apps = [buildApp(deps), buildPublicHandler({ ...deps, subscriber, cache })];
    const contradictions: Charts[] = [];
    let answers = 0;
    let flipping = true;
    const poll = async (app: (typeof apps)[number]) => {
      while (flipping) {
        const res = await request(app).get(CHARTS);
        answers += 1;
        const charts = res.body as Charts;
        if (res.status === 200 && charts.overall !== overallOf(charts)) contradictions.push(charts);
      }
    };
    const pollers = apps.flatMap((app) => [poll(app), poll(app)]);
    const flips: [number, string][] = [
      [1, 'up'],
      [2, 'down'],
      [1, 'down'],
      [2, 'up'],
      [1, 'degraded'],
      [2, 'down'],
      [1, 'up'],
      [2, 'up'],
      [1, 'down'],
      [1, 'up'],
    ];
    for (const [monitor, status] of flips) await checkAndProject(monitor, status);
    flipping = false;
    await Promise.all(pollers);
    expect(answers).toBeGreaterThan(flips.length);
    expect(contradictions).toEqual([]);
  });
});
