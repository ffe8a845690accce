// GET /metrics always answers Prometheus text: a collector whose source fails or hangs is reported
// by metrics_collector_failed instead of turning the scrape into a 500 or a hang, and one scrape
// asks the event log once.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { DatabasePool } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/eventLog/createDb.ts';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { createProjectorMetrics } from '../../src/projector/projectorMetrics.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { tcpProxy } from '../support/tcpProxy.ts';
import { freePort, startRedisServer, type RedisServer } from '../support/redisServer.ts';

const log = pino({ level: 'silent' });

const operatorApp = (db: DatabasePool, redis: RedisClient, prefix: string, queue?: Queue) => {
  const registry = new Registry();
  createProjectorMetrics(registry, { db, redis, prefix, log, ...(queue ? { queue } : {}) });
  return buildOperatorApp({ db, redis, prefix, registry, log, clock: () => new Date() });
};

/** The real pool, recording the text of every statement sent through it. */
const recording = (db: DatabasePool, statements: string[]): DatabasePool =>
  new Proxy(db, {
    get: (target, property) => {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const query = args[0] as { sql?: unknown } | undefined;
        if (typeof query?.sql === 'string') statements.push(query.sql);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });

describe('GET /metrics', () => {
  let env: ProjectorEnv;
  let server: RedisServer;

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 4, now: '2026-11-22T12:00:00Z' });
    await env.append(
      pageConfigured('m1'),
      monitorConfigured('m1', 1),
      check('m1', 1, '2026-11-22T11:59:00Z'),
    );
    await env.project();
    await env.append(check('m1', 1, '2026-11-22T11:59:30Z'));
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.stop();
    await env.close();
  });

  it('asks the event log once per scrape, and reports every collector healthy', async () => {
    const statements: string[] = [];
    const app = operatorApp(recording(env.t.db, statements), env.redis, env.prefix);
    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.text).toContain('projector_lag_events 1\n');
    expect(res.text).toContain('projector_dead_letters 0\n');
    expect(res.text).toContain('metrics_collector_failed{collector="projection_lag"} 0\n');
    expect(res.text).toContain('metrics_collector_failed{collector="dead_letters"} 0\n');
    expect(statements.filter((text) => /\bevent_log\b/.test(text))).toHaveLength(1);
  });

  it('answers 200 when PostgreSQL and Redis are unreachable, naming the failed collectors', async () => {
    const proxy = await tcpProxy(new URL(env.t.url));
    const db = await createDb(proxy.url);
    await proxy.shut();
    const away = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    away.on('error', () => undefined);
    try {
      const res = await request(operatorApp(db, away, env.prefix))
        .get('/metrics')
        .timeout(2_000);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.text).toContain('metrics_collector_failed{collector="projection_lag"} 1\n');
      expect(res.text).toContain('metrics_collector_failed{collector="dead_letters"} 1\n');
      expect(res.text).not.toMatch(/<html|at .*\.ts:\d+/);
    } finally {
      away.disconnect();
      await db.end();
    }
  });

  it('answers within 2 s when a source hangs (Redis frozen), naming it', async () => {
    const frozen = new Redis(server.url, { maxRetriesPerRequest: null });
    frozen.on('error', () => undefined);
    const queue = new Queue('projector', { connection: frozen, prefix: '{m-q}' });
    await queue.waitUntilReady();
    server.freeze();
    try {
      const app = operatorApp(env.t.db, env.redis, env.prefix, queue);
      for (let scrape = 0; scrape < 2; scrape += 1) {
        const res = await request(app).get('/metrics').timeout(2_000);
        expect(res.status).toBe(200);
        expect(res.text).toContain('metrics_collector_failed{collector="queue_depth"} 1\n');
        expect(res.text).toContain('metrics_collector_failed{collector="projection_lag"} 0\n');
        expect(res.text).toContain('projector_lag_events 1\n');
      }
    } finally {
      server.thaw();
      await queue.close();
      frozen.disconnect();
    }
  });
});
