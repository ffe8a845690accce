// GET /api/embed/stream under hostile or careless clients: nothing a client does leaves a stream
// registered or counted, streams are capped per client and in all (429 / 503 with Retry-After), a
// client that does not read is dropped, a stream ends at its maximum lifetime (the reconnection
// resumes by Last-Event-ID), and a hub that cannot subscribe answers 503 instead of waiting.
import http, { type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { errorHandler } from '../../src/http/errors.ts';
import { createPageLocator, type RouteDeps } from '../../src/readModels/access/pageGate.ts';
import { uncached } from '../../src/http/readCache.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import { createPageReads } from '../../src/readModels/pageReads.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { createSubscriptionReads, type SubscriptionReads } from '../../src/readModels/subscriptionReads.ts';
import { embedStreamRoutes } from '../../src/readModels/embed/streamRoutes.ts';
import { routeTable } from '../../src/http/routeTable.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { createChangeHub, type ChangeHub } from '../../src/readModels/embed/changeHub.ts';
import { registerStreamGauge } from '../../src/readModels/embed/streamGauge.ts';
import { defaultStreamLimits, type StreamLimitSettings } from '../../src/readModels/embed/streamLimits.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { nextStatus, openStream } from '../support/sseClient.ts';

const log = pino({ level: 'silent' });
const tick = () => new Promise((resolve) => setImmediate(resolve));

const gate = () => {
  let reach!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { reached, open, arrive: () => (reach(), opened) };
};

describe('live streams, bounded', () => {
  let env: ProjectorEnv;
  const servers: Server[] = [];
  const hubs: ChangeHub[] = [];

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
    await projectAll(
      env,
      (
        await env.append(
          pageConfigured('acme', { plan: 'growth' }),
          monitorConfigured('acme', 1, { name: 'API', impact: 'major' }),
          check('acme', 1, '2026-11-22T11:59:00Z', 'up', 100),
        )
      ).accepted,
    );
  });
  afterAll(async () => {
    for (const hub of hubs) await hub.close();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await env.close();
  });

  /** A server of the stream route alone; `wrap` sees each request and its reads. */
  const serve = async (
    limits: Partial<StreamLimitSettings>,
    options: {
      redis?: RedisClient;
      reads?: (reads: SubscriptionReads) => SubscriptionReads;
      locate?: (locate: RouteDeps['locate']) => RouteDeps['locate'];
      wrapHub?: (hub: ChangeHub) => ChangeHub;
      seen?: (res: ServerResponse, done: Promise<void>) => void;
    } = {},
  ) => {
    const hub = createChangeHub({
      redis: options.redis ?? env.redis,
      prefix: env.prefix,
      log,
      heartbeatMs: 100,
      limits: { ...defaultStreamLimits, ...limits },
    });
    hubs.push(hub);
    const redis = env.redis;
    const config = loadConfig({ TRUST_PROXY: 'on', PUBLIC_BASE_URL: URLS.baseUrl });
    const locate = createPageLocator(createActiveVersionReader(redis, env.prefix), env.prefix);
    const deps: RouteDeps = {
      reads: createPageReads(redis, {
        baseUrl: config.publicBaseUrl,
        pageUrlTemplate: config.pageUrlTemplate,
      }),
      locate: options.locate?.(locate) ?? locate,
      config,
      cache: uncached,
      clock: systemClock,
    };
    const reads = createSubscriptionReads(redis);
    const [route] = embedStreamRoutes(deps, options.reads?.(reads) ?? reads, options.wrapHub?.(hub) ?? hub);
    const app = express();
    app.set('trust proxy', true);
    app.set('query parser', 'simple');
    app.use(
      routeTable([
        {
          ...route!,
          handle: async (req, res) => {
            let settle!: () => void;
            const done = new Promise<void>((resolve) => (settle = resolve));
            options.seen?.(res, done);
            try {
              await route!.handle(req, res);
            } finally {
              settle();
            }
          },
        },
      ]),
    );
    app.use(errorHandler(log));
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return { hub, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  };

  const connections = (server: Server) =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  it('leaves nothing registered or counted when the client leaves at any await', async () => {
    for (const step of ['ready', 'locate', 'read'] as const) {
      const at = gate();
      let settled: Promise<void> = Promise.resolve();
      const { hub, base, server } = await serve(
        {},
        {
          wrapHub: (hub) =>
            step === 'ready' ? { ...hub, ready: async () => (await hub.ready(), at.arrive()) } : hub,
          locate: (locate) =>
            step === 'locate' ? async (slug) => (await at.arrive(), locate(slug)) : locate,
          reads: (reads) =>
            step === 'read'
              ? {
                  ...reads,
                  embedStream: async (page, clockNow, series) => (
                    await at.arrive(),
                    reads.embedStream(page, clockNow, series)
                  ),
                }
              : reads,
          seen: (_res, done) => {
            settled = done;
          },
        },
      );
      const req = http.get(`${base}/api/embed/stream?slug=acme`);
      req.on('error', () => {});
      await at.reached;
      req.destroy();
      while ((await connections(server)) > 0) await tick();
      at.open();
      await settled;
      for (let i = 0; i < 10; i++) await tick();
      expect([step, hub.size(), hub.open()]).toEqual([step, 0, 0]);
    }
  });

  it('caps streams per client (429) and in all (503), with Retry-After, and frees slots on close', async () => {
    const { hub, base } = await serve({ perClient: 2, total: 3 });
    const from = (ip: string) => openStream(`${base}/api/embed/stream?slug=acme`, { 'X-Forwarded-For': ip });
    const a1 = await from('10.0.0.1');
    const a2 = await from('10.0.0.1');
    const a3 = await from('10.0.0.1');
    const b1 = await from('10.0.0.2');
    const c1 = await from('10.0.0.3');
    expect([a1.status, a2.status, b1.status]).toEqual([200, 200, 200]);
    expect([a3.status, a3.headers['retry-after'], await a3.body()]).toEqual([
      429,
      '30',
      '{"error":"too many requests"}',
    ]);
    expect([c1.status, c1.headers['retry-after'], await c1.body()]).toEqual([
      503,
      '30',
      '{"error":"service unavailable"}',
    ]);
    expect(hub.open()).toBe(3);
    a1.close();
    await a1.ended;
    while (hub.open() > 2) await tick();
    const a4 = await from('10.0.0.1');
    expect(a4.status).toBe(200);
    for (const s of [a2, b1, a4]) s.close();
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as its IPv4 address', async () => {
    const { base } = await serve({ perClient: 2, total: 10 });
    const from = (ip: string) => openStream(`${base}/api/embed/stream?slug=acme`, { 'X-Forwarded-For': ip });
    const opened = [];
    for (const ip of ['2001:db8:5:1::1', '2001:db8:5:1::2', '2001:db8:5:1:ffff::3', '2001:db8:5:2::1'])
      opened.push(await from(ip));
    for (const ip of ['10.0.1.1', '::ffff:10.0.1.1', '10.0.1.1']) opened.push(await from(ip));
    expect(opened.map((stream) => stream.status)).toEqual([200, 200, 429, 200, 200, 200, 429]);
    for (const stream of opened) stream.close();
  });

  it('drops a stream whose client does not read, and reports open streams on the gauge', async () => {
    let held: ServerResponse | undefined;
    const { hub, base } = await serve({ maxUnsentBytes: 64 }, { seen: (res) => (held = res) });
    const registry = new Registry();
    registerStreamGauge(registry, hub);
    const stream = await openStream(`${base}/api/embed/stream?slug=acme`);
    await nextStatus(stream);
    expect(await registry.getSingleMetricAsString('live_streams_open')).toContain('live_streams_open 1');
    held!.cork(); // what the server sees of a client that stopped reading: writes pile up unsent
    await stream.ended;
    while (hub.open() > 0) await tick();
    expect(hub.size()).toBe(0);
    expect(await registry.getSingleMetricAsString('live_streams_open')).toContain('live_streams_open 0');
  });

  it('ends a stream at its maximum lifetime; the reconnection resumes by Last-Event-ID', async () => {
    const { base } = await serve({ maxLifetimeMs: 250 });
    const stream = await openStream(`${base}/api/embed/stream?slug=acme`);
    const first = await nextStatus(stream);
    await stream.ended;
    expect(await stream.body()).toMatch(/\nretry: \d+\n\n$/);
    const again = await openStream(`${base}/api/embed/stream?slug=acme`, {
      'Last-Event-ID': String(first.id),
    });
    expect(await again.next()).toEqual({ kind: 'comment', text: 'heartbeat' }); // nothing it already has
    again.close();
  });

  it('answers 503 when the hub cannot subscribe in time, and counts nothing', async () => {
    const away = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 1 });
    away.on('error', () => {});
    const { hub, base } = await serve({ hubWaitMs: 200 }, { redis: away });
    const res = await openStream(`${base}/api/embed/stream?slug=acme`);
    expect([res.status, res.headers['retry-after'], await res.body()]).toEqual([
      503,
      '5',
      '{"error":"service unavailable"}',
    ]);
    while (hub.open() > 0) await tick();
    expect(hub.size()).toBe(0);
    away.disconnect();
  });
});
