// An API pod's readiness: /readyz/reads asks what public reads need (Redis and an active model
// version), not PostgreSQL, so a database failover leaves the API pods in their Service;
// /readyz keeps asking both stores.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/eventLog/createDb.ts';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { tcpProxy } from '../support/tcpProxy.ts';
import { freshRedisPrefix, redisAway } from '../support/testEnv.ts';

describe('readiness for reads', () => {
  let env: ProjectorEnv;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let unreachableDb: Db;

  beforeAll(async () => {
    env = await startProjectorEnv();
    proxy = await tcpProxy(new URL(env.t.url));
    unreachableDb = await createDb(proxy.url);
    await proxy.shut(); // PostgreSQL is away from here on
  });
  afterAll(async () => {
    await unreachableDb.end();
    await env.close();
  });

  const operator = (redis: RedisClient, prefix = env.prefix) =>
    request(
      buildOperatorApp({
        db: unreachableDb,
        redis,
        prefix,
        registry: new Registry(),
        log: pino({ level: 'silent' }),
        clock: () => new Date(),
      }),
    );

  it('stays ready for reads while PostgreSQL does not answer; /readyz names it', async () => {
    const reads = await operator(env.redis).get('/readyz/reads');
    expect([reads.status, reads.headers['cache-control'], reads.body]).toEqual([
      200,
      'no-store',
      { status: 'ready' },
    ]);
    const both = await operator(env.redis).get('/readyz');
    expect([both.status, both.body]).toEqual([503, { status: 'not ready', failing: ['postgres'] }]);
  });

  it('is not ready without an active model version (reads would answer 503)', async () => {
    const res = await operator(env.redis, freshRedisPrefix()).get('/readyz/reads');
    expect([res.status, res.body]).toEqual([503, { status: 'not ready', failing: ['read_models'] }]);
  });

  it('is not ready while Redis does not answer', async () => {
    const away = redisAway();
    try {
      const res = await operator(away).get('/readyz/reads');
      expect([res.status, res.body]).toEqual([503, { status: 'not ready', failing: ['redis'] }]);
    } finally {
      away.disconnect();
    }
  });
});
