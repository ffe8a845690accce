// The API's in-process response cache, and the memo of whole answers in front of the app, against
// the real projector: a render's announcement (in its fenced commit) drops the page's cached
// bodies, so a change shows without waiting for the TTL; a subscriber that hangs never keeps a body
// past the TTL; one that drops empties and bypasses the cache; and the ETags and 304s are the
// contract's (decisions.md: strong ETag, 304 without a body).
import net from 'node:net';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildPublicHandler } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createReadCache, type ReadCache } from '../../src/http/readCache.ts';
import { createResponseMemo } from '../../src/http/responseMemo.ts';
import { etagOf } from '../../projections/store/bytes.ts';
import { createSubscriber, type Subscriber } from '../../src/store/subscriber.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const N = '2026-11-22T12:00:30Z';
const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A relay to Redis whose traffic can be held (a hung connection) or cut (a dropped one). */
const relay = async (target: URL) => {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let holding = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
    client.pipe(upstream);
    if (!holding) upstream.pipe(client);
    pairs.add([client, upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Nothing from Redis reaches the client until `release`; the connection stays open. */
    hold: () => {
      holding = true;
      for (const [client, upstream] of pairs) upstream.unpipe(client).pause();
    },
    release: () => {
      holding = false;
      for (const [client, upstream] of pairs) upstream.pipe(client);
    },
    cut: () => {
      for (const pair of pairs) for (const socket of pair) socket.destroy();
      pairs.clear();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
};

describe('the response cache', () => {
  let env: ProjectorEnv;
  let proxy: Awaited<ReturnType<typeof relay>>;
  let proxied: Redis;
  const apps: { subscriber: Subscriber; cache: ReadCache }[] = [];
  const config = () => loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
  let minute = 0;
  /** Appends a check a minute after the previous one and projects it (the fenced commit). */
  const checkAndProject = async (status: 'up' | 'down') => {
    minute += 1;
    const at = new Date(Date.parse('2026-11-22T11:00:00Z') + minute * 60_000).toISOString();
    await projectAll(env, (await env.append(check('acme', 1, at, status, 100 + minute))).accepted);
  };

  /** The public handler with a cache of `ttlMs` (and its memo) whose subscriber reaches Redis through `proxy`. */
  const cachedApp = async (ttlMs: number) => {
    const subscriber = createSubscriber(proxied, `${env.prefix}:api`, log);
    const cache = createReadCache(subscriber, env.prefix, { ttlMs, maxBytes: 8 * 1024 * 1024 });
    const memo = createResponseMemo(cache, { maxBytes: 8 * 1024 * 1024 });
    await subscriber.ready();
    apps.push({ subscriber, cache });
    const app = buildPublicHandler({
      redis: env.redis,
      prefix: env.prefix,
      clock: env.now,
      config: config(),
      log,
      subscriber,
      cache,
      memo,
    });
    /** Reads answered from memory: by the memo, or by the cache behind the routes. */
    const fromMemory = () => cache.stats().hits + memo.stats().hits;
    // One Host, as a deployment has (supertest's own is a new port per request): the memo keys on it.
    const get = (path: string) => request(app).get(path).set('Host', 'api.status.test');
    return { app, cache, memo, subscriber, fromMemory, get };
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    await projectAll(
      env,
      (
        await env.append(
          pageConfigured('acme', { plan: 'growth' }),
          monitorConfigured('acme', 1, { name: 'API', impact: 'major' }),
          check('acme', 1, '2026-11-22T11:00:00Z', 'up', 100),
        )
      ).accepted,
    );
    proxy = await relay(new URL(process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379'));
    proxied = new Redis({ host: '127.0.0.1', port: proxy.port, lazyConnect: true });
  });
  afterAll(async () => {
    for (const { subscriber, cache } of apps) {
      cache.close();
      await subscriber.close();
    }
    proxied.disconnect();
    proxy.cut();
    await proxy.close();
    await env.close();
  });

  const overall = async (get: (path: string) => request.Test) => ({
    embed: ((await get('/api/embed/status?slug=acme')).body as { overall: string }).overall,
    charts: ((await get('/api/status/acme/charts')).body as { overall: string }).overall,
    badge: (await get('/badge/acme.svg')).headers['etag'] as string,
  });

  it('serves repeated reads from memory, and a projected change without waiting for the TTL', async () => {
    const t = await cachedApp(600_000); // only an announcement can make a change visible
    await checkAndProject('up');
    const before = await overall(t.get);
    expect([before.embed, before.charts]).toEqual(['operational', 'operational']);
    // The commit's announcement travels on another connection than its reply: arriving after the
    // first read, it drops what that read kept. Once it has passed, repeated reads are all hits.
    let hits = 0;
    // The memo keeps an answer once its cache entry has settled: wait for both, as for the hits.
    for (let tries = 0; tries < 50 && (hits !== 3 || t.memo.stats().hits < 3); tries += 1) {
      if (tries > 0) await sleep(20);
      await overall(t.get);
      const hitsBefore = t.fromMemory();
      expect(await overall(t.get)).toEqual(before);
      hits = t.fromMemory() - hitsBefore;
    }
    expect(hits).toBe(3);
    expect(t.memo.stats().hits).toBeGreaterThanOrEqual(3); // whole answers given again

    await checkAndProject('down'); // the only monitor, impact major: the page is in a major outage
    let after = await overall(t.get);
    for (let tries = 0; tries < 100 && after.embed === 'operational'; tries += 1) {
      await sleep(20); // the announcement travels on another connection than the commit's reply
      after = await overall(t.get);
    }
    expect([after.embed, after.charts]).toEqual(['major_outage', 'major_outage']);
    expect(after.badge).not.toBe(before.badge);
    expect(t.cache.stats().invalidations).toBeGreaterThan(0);
  });

  it("answers the first read after a change with the page's previous body while one read refreshes it", async () => {
    const t = await cachedApp(600_000);
    await checkAndProject('up');
    const path = '/api/embed/status?slug=acme';
    const overallOf = async () => ((await t.get(path)).body as { overall: string }).overall;
    expect(await overallOf()).toBe('operational');
    for (let tries = 0; tries < 50 && t.cache.stats().invalidations === 0; tries += 1) await sleep(20);
    await overallOf(); // cached after the first render's announcement
    const invalidations = t.cache.stats().invalidations;
    await checkAndProject('down');
    for (let tries = 0; tries < 100 && t.cache.stats().invalidations === invalidations; tries += 1)
      await sleep(10);
    const { stale, misses } = t.cache.stats();
    expect(await overallOf()).toBe('operational'); // the stale body, at once
    expect(t.cache.stats()).toMatchObject({ stale: stale + 1, misses });
    let now = await overallOf();
    for (let tries = 0; tries < 100 && now === 'operational'; tries += 1) {
      await sleep(5);
      now = await overallOf();
    }
    expect(now).toBe('major_outage'); // refreshed by that one read
    expect(t.cache.stats().stale - stale).toBeLessThanOrEqual(2);
  });

  it('never answers from what it cached for a page that was then made private, not even once', async () => {
    const t = await cachedApp(600_000);
    await projectAll(
      env,
      (
        await env.append(
          pageConfigured('vault', { plan: 'growth' }, '2026-11-22T11:00:00Z'),
          monitorConfigured('vault', 7, { name: 'Vault' }, '2026-11-22T11:00:00Z'),
        )
      ).accepted,
    );
    const paths = [
      '/api/embed/status?slug=vault',
      '/api/status-pages/vault/incidents',
      '/api/status/vault/charts',
    ];
    for (const path of paths) expect((await t.get(path)).status).toBe(200);
    for (const path of paths) expect((await t.get(path)).status).toBe(200); // now from memory
    const { invalidations } = t.cache.stats();
    const token = 'a-token-of-at-least-16-chars';
    await projectAll(
      env,
      (
        await env.append(
          pageConfigured('vault', { plan: 'growth', auth_token: token }, '2026-11-22T11:05:00Z'),
        )
      ).accepted,
    );
    for (let tries = 0; tries < 100 && t.cache.stats().invalidations === invalidations; tries += 1)
      await sleep(10);
    // The first read after the announcement: never the public body the cache held.
    for (const path of paths)
      expect({ path, status: (await t.get(path)).status }).toEqual({ path, status: 401 });
  });

  it('never serves a body past the TTL while its subscriber hangs', async () => {
    const t = await cachedApp(300);
    await checkAndProject('up');
    const cached = await overall(t.get);
    expect(cached.embed).toBe('operational');
    proxy.hold(); // announcements no longer arrive; the connection looks alive
    try {
      await checkAndProject('down');
      await sleep(400); // past the TTL
      const now = await overall(t.get);
      expect([now.embed, now.charts]).toEqual(['major_outage', 'major_outage']);
      expect(t.subscriber.live()).toBe(true); // nothing told it the connection hangs
    } finally {
      proxy.release();
    }
  });

  it('drops and bypasses the cache while its subscriber is disconnected', async () => {
    const t = await cachedApp(600_000);
    await checkAndProject('up');
    expect((await overall(t.get)).embed).toBe('operational');
    proxy.hold();
    await checkAndProject('down'); // announced, but the subscriber does not hear it
    proxy.cut(); // now the connection drops: the cache must forget what it holds
    for (let tries = 0; tries < 100 && t.subscriber.live(); tries += 1) await sleep(10);
    expect(t.subscriber.live()).toBe(false); // it reconnects, but cannot subscribe while held
    const bypassed = t.cache.stats().bypassed;
    const now = await overall(t.get);
    expect([now.embed, now.charts]).toEqual(['major_outage', 'major_outage']);
    expect(t.cache.stats().bypassed - bypassed).toBe(3);
    proxy.release();
    await t.subscriber.ready(); // reconnected and subscribed again: cached once more
    await overall(t.get);
    const hits = t.fromMemory();
    await overall(t.get);
    expect(t.fromMemory() - hits).toBe(3);
  });

  it('answers 304 to the ETag it sent, which is the strong hash of the body, and 200 after a change', async () => {
    const t = await cachedApp(600_000);
    await checkAndProject('up');
    const paths = [
      '/api/embed/status?slug=acme&inc=1&rtm=240&upd=30',
      '/api/status-pages/acme/incidents',
      `/api/status-pages/acme/incidents/daily-counts?month=2026-11`,
      '/api/status/acme/charts',
    ];
    const tags = new Map<string, string>();
    for (const path of paths) {
      const res = await t.get(path);
      expect(res.status, path).toBe(200);
      const etag = res.headers['etag'] as string;
      expect(etag, path).toBe(etagOf(res.text));
      tags.set(path, etag);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await t.get(path).set('If-None-Match', header);
        expect([again.status, again.text, again.headers['etag']], `${path} ${header}`).toEqual([
          304,
          '',
          etag,
        ]);
      }
    }
    await checkAndProject('down');
    const changed = ['/api/embed/status?slug=acme&inc=1&rtm=240&upd=30', '/api/status/acme/charts'];
    for (const path of changed) {
      let res = await t.get(path).set('If-None-Match', tags.get(path)!);
      for (let tries = 0; tries < 100 && res.status === 304; tries += 1) {
        await sleep(20);
        res = await t.get(path).set('If-None-Match', tags.get(path)!);
      }
      expect(res.status, path).toBe(200);
      expect(res.headers['etag'], path).toBe(etagOf(res.text));
    }
  });

  it("reads a page's embed once for all its variants in a minute, each body the uncached app's", async () => {
    const t = await cachedApp(600_000);
    const plain = buildApp({ redis: env.redis, prefix: env.prefix, clock: env.now, config: config(), log });
    const paths = [1, 7, 60, 240].flatMap((rtm) =>
      [undefined, 1, 30].map(
        (upd) => `/api/embed/status?slug=acme&inc=1&rtm=${rtm}${upd ? `&upd=${upd}` : ''}`,
      ),
    );
    await t.get(paths[0]!);
    const misses = t.cache.stats().misses;
    for (const path of paths) {
      const [cached, uncached] = [await t.get(path), await request(plain).get(path)];
      expect([path, cached.status, cached.text]).toEqual([path, 200, uncached.text]);
    }
    expect(t.cache.stats().misses - misses).toBe(0);
  });
});
