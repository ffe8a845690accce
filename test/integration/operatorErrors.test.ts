// The operator listener answers errors in the public API's style (decisions.md "HTTP"): the
// texts of ingest.md, a JSON body, Cache-Control no-store, Retry-After only where retrying helps.
import type { RedisClient } from '../../src/store/redisClient.ts';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { freshDatabase, freshRedisPrefix, testRedis, type TestDatabase } from '../support/testEnv.ts';

const TOKEN = 'operator-token-of-some-length';

describe('operator listener errors', () => {
  let t: TestDatabase;
  let redis: RedisClient;
  const operatorApp = (token: string | null) =>
    buildOperatorApp({
      db: t.db,
      redis,
      prefix: freshRedisPrefix(),
      registry: new Registry(),
      log: pino({ level: 'silent' }),
      clock: systemClock,
      ingest: { token, wake: () => Promise.resolve() },
    });

  beforeAll(async () => {
    t = await freshDatabase();
    redis = testRedis();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
  });

  const errorOf = (res: request.Response) => ({
    status: res.status,
    type: res.headers['content-type'],
    cache: res.headers['cache-control'],
    retryAfter: res.headers['retry-after'],
    body: res.text,
  });
  const json = 'application/json; charset=utf-8';

  it('answers an unknown path with "not found"', async () => {
    const res = await request(operatorApp(TOKEN)).get('/nope');
    expect(errorOf(res)).toEqual({
      status: 404,
      type: json,
      cache: 'no-store',
      retryAfter: undefined,
      body: '{"error":"not found"}',
    });
  });

  it('answers ingest without a configured token with "ingest disabled", no Retry-After', async () => {
    const res = await request(operatorApp(null)).post('/v1/events').type('application/json').send('[]');
    expect(errorOf(res)).toEqual({
      status: 503,
      type: json,
      cache: 'no-store',
      retryAfter: undefined,
      body: '{"error":"ingest disabled"}',
    });
  });

  it('names every invalid event after the error text', async () => {
    const res = await request(operatorApp(TOKEN))
      .post('/v1/events')
      .set('Authorization', `Bearer ${TOKEN}`)
      .type('application/json')
      .send([{ type: 'page.deleted', page: 'nowhere', at: '2026-01-01T00:00:00Z' }]);
    expect(errorOf(res)).toEqual({
      status: 400,
      type: json,
      cache: 'no-store',
      retryAfter: undefined,
      body: '{"error":"invalid events","details":[{"index":0,"message":"page \\"nowhere\\" does not exist"}]}',
    });
  });
});
