// Redis stalls (SIGSTOP) and busy scripts must not hang or break the API: every public request
// answers within 2 s, 503 with Retry-After (the badge: a grey SVG), /readyz names Redis, and
// everything answers again once Redis does. A redis-server of this file's own takes the abuse.
import type { Express } from 'express';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { createReadRedis } from '../../src/runtime/clients.ts';
import { fixtureClock, fullPage, TOKEN } from '../support/apiFixture.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { seedActive, seedPage } from '../support/seedReadModels.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';
import { Registry } from 'prom-client';
import { elevenApiPaths } from '../support/apiPaths.ts';

const DEADLINE_MS = 2_000;
const PREFIX = 'sp';

const publicPaths = elevenApiPaths('acme', 101, { period: '24h' });

describe('the API while Redis stalls', () => {
  let server: RedisServer;
  let t: TestDatabase;
  let redis: RedisClient;
  let app: Express;
  let operator: Express;
  const log = pino({ level: 'silent' });

  beforeAll(async () => {
    server = await startRedisServer({ settings: { 'busy-reply-threshold': '50' } });
    t = await freshDatabase();
    const admin = server.admin();
    await seedActive(admin, PREFIX);
    await seedPage(admin, PREFIX, fullPage('acme'));
    await seedPage(admin, PREFIX, fullPage('secret', { token: TOKEN }, 102));
    redis = createReadRedis({ redisUrl: server.url, redisClusterNodes: null });
    redis.on('error', () => undefined);
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://status.example.com' });
    app = buildApp({ redis, prefix: PREFIX, config, log, clock: fixtureClock });
    operator = buildOperatorApp({
      db: t.db,
      redis,
      prefix: PREFIX,
      registry: new Registry(),
      log,
      clock: () => new Date(),
    });
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
    await t.close();
  });

  const get = (target: Express, path: string) => request(target).get(path).timeout(DEADLINE_MS);

  const expectUnavailable = (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ error: 'service unavailable' });
  };

  it('answers normally before the stall', async () => {
    for (const path of [...publicPaths, '/s/acme', '/badge/acme.svg'])
      expect((await get(app, path)).status, path).toBe(200);
    expect((await get(operator, '/readyz')).body).toEqual({ status: 'ready' });
  });

  describe('with Redis stopped (SIGSTOP)', () => {
    beforeAll(() => server.freeze());
    afterAll(() => server.thaw());

    it.each(publicPaths)('GET %s answers 503 with Retry-After within 2 s', async (path) => {
      expectUnavailable(await get(app, path));
    });

    it('the badge answers the grey "unknown" image with 503', async () => {
      const res = await get(app, '/badge/acme.svg');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(String(res.body)).toContain('Unknown');
    });

    it('the status page answers an HTML page with 503', async () => {
      const res = await get(app, '/s/acme');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    });

    it('/readyz names redis within 2 s', async () => {
      const res = await get(operator, '/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'not ready', failing: ['redis'] });
    });

    it('/v1/projection-status answers 503 within 2 s', async () => {
      const res = await get(operator, '/v1/projection-status');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'service unavailable' });
    });
  });

  it('answers again once Redis is back, without a restart', async () => {
    for (const path of publicPaths) expect((await get(app, path)).status, path).toBe(200);
    expect((await get(operator, '/readyz')).body).toEqual({ status: 'ready' });
  });

  it('answers 503, never 500, while Redis is busy running a script', async () => {
    const [busy, killer] = [server.admin(), server.admin()];
    await killer.ping(); // connected before the script starts: a new connection would get BUSY too
    // A read-only script that spins until killed: past busy-reply-threshold every other client
    // gets BUSY replies.
    const spinning = busy.eval('while true do redis.call("TIME") end', 0).then(
      () => null,
      (error: unknown) => error,
    );
    try {
      let res: request.Response | undefined;
      for (let tries = 0; tries < 50; tries += 1) {
        res = await get(app, '/api/status/acme/charts');
        if (res.status !== 200) break; // the script has not passed the threshold yet
      }
      expectUnavailable(res!);
      const badge = await get(app, '/badge/acme.svg');
      expect(badge.status).toBe(503);
      expect(badge.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    } finally {
      await killer.script('KILL');
      expect(String(await spinning)).toContain('killed');
    }
    expect((await get(app, '/api/status/acme/charts')).status).toBe(200);
  });

  it('answers a wrong token 503, never 500, while Redis refuses writes at its memory limit', async () => {
    const admin = server.admin();
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '1'); // every write is refused from now on: OOM
    try {
      // Counting a wrong guess is a write; reads, and the right token, need none.
      expectUnavailable(
        await get(app, '/api/status-pages/secret/incidents?auth_token=wrong-token-0123456789'),
      );
      const reader = await get(app, `/api/status-pages/secret/incidents?auth_token=${TOKEN}`);
      expect(reader.status).toBe(200);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      admin.disconnect();
    }
  });
});
