// The service as the origin behind a real Varnish 7 with varnish-modules' xkey, running the shipped
// VCL (deploy/varnish/default.vcl): one private Varnish for the file, on random ports, in front of
// the public API as `npm run serve` runs it, with the projector purging it (edge-caching.md).
import http from 'node:http';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdgePurger, type EdgePurger } from '../../src/edge/edgePurger.ts';
import { TICK_SLACK_SECONDS } from '../../src/edge/edgeHeaders.ts';
import { varnishTarget } from '../../src/edge/providers.ts';
import { activePartitions } from '../../src/edge/activePartitions.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import {
  assetPaths,
  herd,
  pagePaths,
  startCountingOrigin,
  type CountingOrigin,
} from '../support/edgeHerd.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { startVarnish, type Varnish } from '../support/varnish.ts';

const TOKEN = 'a-private-page-token-0123';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Answer = Readonly<{ status: number; body: string; headers: Headers }>;

describe('behind Varnish with xkey', () => {
  let env: ProjectorEnv;
  let origin: CountingOrigin;
  let varnish: Varnish;
  let purger: EdgePurger;
  const registry = new Registry();
  let minute = 0;

  const get = async (path: string): Promise<Answer> => {
    const res = await fetch(`${varnish.url}${path}`);
    return { status: res.status, body: await res.text(), headers: res.headers };
  };
  /** Varnish's X-Varnish holds two ids when the answer came from its cache. */
  const fromCache = (answer: Answer) => (answer.headers.get('x-varnish') ?? '').split(' ').length === 2;
  const overall = async (slug: string) =>
    (JSON.parse((await get(`/api/embed/status?slug=${slug}`)).body) as { overall: string }).overall;
  const purged = async () =>
    (await registry.getSingleMetric('edge_purges_total')?.get())?.values[0]?.value ?? 0;
  const until = async (what: string, done: () => Promise<boolean>) => {
    for (let tries = 0; !(await done()); tries += 1) {
      if (tries > 600) throw new Error(`timed out waiting for ${what}`);
      await sleep(25);
    }
  };
  // An answer the API read while its cache was settling is stale at once: ask until it is kept.
  const cached = async (path: string) => {
    let answer = await get(path);
    for (let i = 0; i < 40 && !fromCache(answer); i += 1) {
      await sleep(50);
      answer = await get(path);
    }
    return answer;
  };

  const project = async (...events: object[]) => projectAll(env, (await env.append(...events)).accepted);
  /** A check on `slug`'s monitor, a minute after the previous one. */
  const checkOn = (slug: string, monitorId: number, status: string) => {
    minute += 1;
    return check(
      slug,
      monitorId,
      new Date(Date.parse('2026-11-22T11:00:00Z') + minute * 60_000).toISOString(),
      status,
    );
  };

  /** The worker's drainer (what `npm run work` starts with EDGE_PURGE=varnish). */
  const startPurger = () => {
    purger = createEdgePurger([varnishTarget(varnish.url)], {
      redis: env.redis,
      prefix: env.prefix,
      partitions: activePartitions(createActiveVersionReader(env.redis, env.prefix), env.prefix),
      registry,
      log: pino({ level: 'silent' }),
    });
    Object.assign(env.deps, { edgePurge: { queued: purger.queued } });
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
    await project(
      pageConfigured('acme', { plan: 'growth', custom_domain: 'status.acme.test' }),
      monitorConfigured('acme', 1, { name: 'API', impact: 'major' }),
      checkOn('acme', 1, 'up'),
      {
        type: 'incident.opened',
        page: 'acme',
        at: '2026-11-22T10:00:00Z',
        data: { incident_id: 'i1', title: 'Slow API', message: 'Looking', components: ['API'] },
      },
      pageConfigured('other', { plan: 'growth' }),
      monitorConfigured('other', 2),
      checkOn('other', 2, 'up'),
      pageConfigured('secret', { plan: 'growth', auth_token: TOKEN }),
      monitorConfigured('secret', 3),
      checkOn('secret', 3, 'up'),
    );
    origin = await startCountingOrigin(env.redis, env.prefix, URLS);
    varnish = await startVarnish(origin.port);
    startPurger();
    await until('the probe finds the API healthy', async () => (await varnish.backendHealth()) === 'healthy');
  });
  afterAll(async () => {
    await purger?.close();
    await varnish?.stop();
    await origin?.stop().catch(() => undefined);
    await env?.close();
  });

  it('caches every public answer of a page, tagged with its keys, and strips the edge-only headers', async () => {
    for (const path of [...pagePaths('acme', 1), ...assetPaths]) {
      const first = await get(path);
      // An answer the API read while its cache was settling is stale at once (max-age=0): the
      // next request refetches it, and the one after finds the settled answer cached.
      let second = await get(path);
      for (let i = 0; i < 3 && !fromCache(second); i += 1) second = await get(path);
      expect({ path, status: first.status, body: second.body }).toEqual({
        path,
        status: 200,
        body: first.body,
      });
      expect({ path, cached: fromCache(second) }).toEqual({ path, cached: true });
      const keys = second.headers.get('surrogate-key')?.split(' ');
      expect({ path, keys }).toEqual({
        path,
        keys: assetPaths.includes(path)
          ? ['static']
          : path.includes('/charts') ||
              path.includes('minute-data') ||
              path.includes('availability') ||
              path.includes('/embed/') ||
              path.includes('/badge/') ||
              path.includes('/api/v2/')
            ? ['page-acme', 'page-acme.checks']
            : ['page-acme'],
      });
      expect([second.headers.get('surrogate-control'), second.headers.get('cdn-cache-control')]).toEqual([
        null,
        null,
      ]);
    }
  });

  it('lets a herd of 64 connections reach the origin a few times per object per change, and shows each change', async () => {
    const paths = pagePaths('acme', 1);
    origin.hits.clear();
    const running = herd(varnish.url, paths, 64, 4);
    await sleep(1_200);
    await project(checkOn('acme', 1, 'down')); // the status changes: page-acme.checks purged
    await sleep(1_200);
    await project({
      type: 'incident.updated',
      page: 'acme',
      at: '2026-11-22T12:00:00Z',
      data: { incident_id: 'i1', state: 'identified', message: 'Found it' },
    }); // page-acme purged
    const result = await running;
    const changes = 2;
    const perObject = paths.map((path) => origin.hits.get(path) ?? 0);
    const fetched = perObject.reduce((a, b) => a + b, 0);
    expect(result.errors).toBe(0);
    expect(result.ok).toBe(result.requests);
    // Each object is fetched once per change it sees, plus a refetch a second after a change while
    // the API's own cache settles, plus at most one lifetime ending on the minute: never per request.
    expect(Math.max(...perObject)).toBeLessThanOrEqual(3 * (changes + 1));
    expect(result.requests).toBeGreaterThan(20 * fetched);
    await until('the outage shows through Varnish', async () => (await overall('acme')) === 'major_outage');
    // A soft purge lets the first request after it have the previous answer while Varnish refetches.
    const incidentState = async () =>
      (JSON.parse((await get('/api/status-pages/acme/incidents')).body) as { incidents: { state: string }[] })
        .incidents[0]!.state;
    await until(
      'the incident update shows through Varnish',
      async () => (await incidentState()) === 'identified',
    );
  });

  it('purges nothing of another page when one page changes', async () => {
    const paths = pagePaths('other', 2);
    for (const path of paths) await get(path);
    const before = new Map(paths.map((path) => [path, origin.hits.get(path) ?? 0]));
    const started = Date.now();
    const purges = await purged();
    await project(checkOn('acme', 1, 'up'));
    await until(
      'the change on acme is purged and shows',
      async () => (await purged()) > purges && (await overall('acme')) === 'operational',
    );
    const after = await Promise.all(paths.map(async (path) => ({ path, answer: await get(path) })));
    // A minute-lifetime answer may end by itself if the minute (plus the tick's slack) turned meanwhile.
    const minuteTurned =
      Math.floor((Date.now() / 1000 - TICK_SLACK_SECONDS) / 60) !==
      Math.floor((started / 1000 - TICK_SLACK_SECONDS) / 60);
    for (const { path, answer } of after) {
      const dayLong = /incidents|daily-counts|\/s\/other$/.test(path) && !/api\/v2/.test(path);
      if (minuteTurned && !dayLong) continue;
      expect({ path, cached: fromCache(answer), fetched: origin.hits.get(path) ?? 0 }).toEqual({
        path,
        cached: true,
        fetched: before.get(path),
      });
    }
  });

  it('keeps a custom domain’s answers apart from other hosts’ (Vary: Host)', async () => {
    const at = (host: string) =>
      new Promise<{ status: number; vary: string | undefined; keys: string | undefined }>(
        (resolve, reject) => {
          const url = new URL(varnish.url);
          http
            .get({ host: url.hostname, port: url.port, path: '/', headers: { Host: host } }, (res) => {
              res.resume();
              res.on('end', () =>
                resolve({
                  status: res.statusCode ?? 0,
                  vary: res.headers['vary'],
                  keys: res.headers['surrogate-key'] as string | undefined,
                }),
              );
            })
            .on('error', reject);
        },
      );
    expect(await at('status.acme.test')).toEqual({ status: 200, vary: 'Host', keys: 'page-acme' });
    expect((await at('elsewhere.test')).status).toBe(404);
    expect(await at('status.acme.test')).toEqual({ status: 200, vary: 'Host', keys: 'page-acme' });
  });

  it('never serves a private page answer to a request without its token', async () => {
    const withToken = await get(`/api/embed/status?slug=secret&auth_token=${TOKEN}`);
    expect([
      withToken.status,
      withToken.headers.get('cache-control'),
      withToken.headers.get('surrogate-key'),
    ]).toEqual([200, 'private, no-store', null]);
    for (const path of pagePaths('secret', 3).filter((p) => p.startsWith('/api/'))) {
      const joined = path.includes('?') ? '&' : '?';
      for (let i = 0; i < 2; i += 1) {
        expect((await get(`${path}${joined}auth_token=${TOKEN}`)).status).toBe(200);
        const without = await get(path);
        expect({ path, status: without.status }).toEqual({
          path,
          status: path.includes('availability') ? 403 : 401,
        });
      }
    }
    // A public page made private: its cached answers go at once (a hard purge, not grace).
    const paths = pagePaths('other', 2).filter((p) => p.startsWith('/api/'));
    for (const path of paths) expect((await get(path)).status).toBe(200);
    await project(pageConfigured('other', { plan: 'growth', auth_token: TOKEN }, '2026-11-22T12:00:00Z'));
    await until('the page is private at the edge', async () => (await get(paths[0]!)).status === 401);
    for (const path of paths)
      expect({ path, status: (await get(path)).status }).toEqual({
        path,
        status: path.includes('availability') ? 403 : 401,
      });
  });

  it('purges a page made private hard once a worker drains again, though none was draining at its commit', async () => {
    await project(
      pageConfigured('later', { plan: 'growth' }),
      monitorConfigured('later', 4),
      checkOn('later', 4, 'up'),
    );
    const paths = pagePaths('later', 4).filter((p) => p.startsWith('/api/'));
    const dayLong = '/api/status-pages/later/incidents';
    for (const path of paths) await get(path);
    expect(fromCache(await cached(dayLong))).toBe(true);
    await purger.close(); // the worker is gone: its commits still queue their purges in Redis
    registry.clear();
    await project(pageConfigured('later', { plan: 'growth', auth_token: TOKEN }, '2026-11-22T12:00:00Z'));
    await sleep(300);
    const stale = await get(dayLong);
    expect([stale.status, fromCache(stale)]).toEqual([200, true]); // nothing purged it yet
    startPurger(); // a worker starts again
    await until('the page is private at the edge', async () => (await get(dayLong)).status === 401);
    for (const path of paths)
      expect({ path, status: (await get(path)).status }).toEqual({
        path,
        status: path.includes('availability') ? 403 : 401,
      });
  });

  it('keeps each language of a page as its own object under the page’s key, all refreshed by one purge', async () => {
    await project(
      pageConfigured('langs', { plan: 'growth' }),
      monitorConfigured('langs', 5),
      checkOn('langs', 5, 'up'),
    );
    const paths = ['/s/langs', '/s/langs?lang=de', '/s/langs?lang=ja'];
    const before = await Promise.all(paths.map(cached));
    expect(
      before.map((answer) => ({
        cached: fromCache(answer),
        keys: answer.headers.get('surrogate-key'),
        varyByLanguage: /accept-language/i.test(answer.headers.get('vary') ?? ''),
        lang: /<html lang="([^"]+)">/.exec(answer.body)?.[1],
      })),
    ).toEqual(
      ['en', 'de', 'ja'].map((lang) => ({ cached: true, keys: 'page-langs', varyByLanguage: false, lang })),
    );
    // Whatever the reader's browser says, a URL has one answer: the language is in the URL.
    // (Not asserted a cache hit: a render of the page meanwhile, e.g. at a minute's tick, purges it.)
    const asked = await fetch(`${varnish.url}/s/langs`, { headers: { 'Accept-Language': 'ja' } });
    expect([asked.headers.get('vary') ?? '', (await asked.text()).slice(0, 40)]).toEqual([
      before[0]!.headers.get('vary') ?? '',
      before[0]!.body.slice(0, 40),
    ]);
    const title = '<h1 id="page-title">Renamed</h1>';
    await project(pageConfigured('langs', { plan: 'growth', title: 'Renamed' }, '2026-11-22T12:00:00Z'));
    for (const path of paths)
      await until(`${path} shows the new title through Varnish`, async () =>
        (await get(path)).body.includes(title),
      );
  });

  it('answers from grace while the origin is stopped', async () => {
    const paths = [...pagePaths('acme', 1), ...assetPaths];
    // What Varnish has answered (a stale answer and its refresh may both have been seen).
    const seen = new Map(paths.map((path) => [path, new Set<string>()]));
    for (let round = 0; round < 2; round += 1) {
      for (const path of paths) seen.get(path)!.add((await get(path)).body);
      await sleep(300);
    }
    await origin.stop();
    await until('the probe finds the API sick', async () => (await varnish.backendHealth()) === 'sick');
    // Every object stale, as after a purge or the end of its lifetime: grace must answer.
    await varnishTarget(varnish.url).send(['page-acme', 'static'], false);
    for (const path of paths) {
      const answer = await get(path);
      expect({ path, status: answer.status, same: seen.get(path)!.has(answer.body) }).toEqual({
        path,
        status: 200,
        same: true,
      });
    }
  });
});
