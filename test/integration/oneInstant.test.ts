// Every API process answers the same bytes and ETag for the same URL in the same minute, and an
// answer assembled when read is a clean rebuild's answer at the instant it names: two processes
// (apps with their own subscriber, response cache and memo, sharing Redis) asked at different
// moments of a minute, before and after a check that arrives mid-minute.
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildPublicHandler } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createReadCache, type ReadCache } from '../../src/http/readCache.ts';
import { createResponseMemo } from '../../src/http/responseMemo.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { createSubscriber, type Subscriber } from '../../src/store/subscriber.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import * as oracle from '../support/figuresOracle.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const START = Date.parse('2026-11-22T11:00:00Z');
const CONFIGURED = Date.parse('2026-11-22T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const log = pino({ level: 'silent' });
const config = () => loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });

const paths = [
  '/api/status/same/charts',
  '/api/status-page/same/minute-data',
  '/api/embed/status?slug=same&rtm=60&upd=7',
  '/api/embed/status?slug=same&inc=1',
];

describe('one instant for every API process', () => {
  let env: ProjectorEnv;
  const closing: { subscriber: Subscriber; cache: ReadCache }[] = [];
  const history: oracle.OracleMonitor[] = [
    { id: 1, name: 'API', checks: [] },
    { id: 2, name: 'Web', checks: [] },
  ];
  let seq = 0;
  const checkAt = async (monitor: number, at: number, status: oracle.Status, rt: number) => {
    await env.append(check('same', monitor, iso(at), status, rt));
    (history[monitor - 1]!.checks as oracle.OracleCheck[]).push({ at, seq: (seq += 1), status, rt });
  };

  /** An API process: its own subscriber, cache and memo, and its own clock. */
  const apiProcess = async () => {
    let clock = START;
    const subscriber = createSubscriber(env.redis, `${env.prefix}:api`, log);
    const cache = createReadCache(subscriber, env.prefix, { ttlMs: 60_000, maxBytes: 8 * 1024 * 1024 });
    const memo = createResponseMemo(cache, { maxBytes: 8 * 1024 * 1024 });
    await subscriber.ready();
    closing.push({ subscriber, cache });
    const app = buildPublicHandler({
      redis: env.redis,
      prefix: env.prefix,
      clock: () => new Date(clock),
      config: config(),
      log,
      subscriber,
      cache,
      memo,
    });
    return {
      at: (ms: number) => (clock = ms),
      get: async (path: string, etag?: string) => {
        const req = request(app).get(path).set('Host', 'api.status.test');
        const res = await (etag === undefined ? req : req.set('If-None-Match', etag)).buffer(true);
        return { status: res.status, body: res.text, etag: res.headers['etag'] };
      },
    };
  };

  const answersOf = async (api: Awaited<ReturnType<typeof apiProcess>>) => {
    const out = [];
    for (const path of paths) out.push({ path, ...(await api.get(path)) });
    return out;
  };

  /** The charts answer a clean rebuild's figures give at `instant` (monitors of the default impact). */
  const expectRebuildsAnswer = (body: string, instant: number) => {
    expect(JSON.parse(body)).toEqual(oracle.charts(history, instant));
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: iso(START) });
    await env.append(
      pageConfigured('same', { plan: 'business' }, iso(CONFIGURED)),
      monitorConfigured('same', 1, { name: 'API' }, iso(CONFIGURED)),
      monitorConfigured('same', 2, { name: 'Web' }, iso(CONFIGURED)),
    );
    for (let minute = -30; minute <= 0; minute += 1) {
      await checkAt(1, START + minute * 60_000 + 2_000, minute > -5 && minute < -2 ? 'down' : 'up', 100);
      await checkAt(2, START + minute * 60_000 + 4_500, 'up', 200 + (minute % 3));
    }
    env.setNow(START + 5_000);
    await env.project();
  });
  afterAll(async () => {
    for (const { subscriber, cache } of closing) {
      cache.close();
      await subscriber.close();
    }
    await env.close();
  });

  it('answers the same bytes and ETag from two processes asked at different moments of a minute', async () => {
    const [a, b] = [await apiProcess(), await apiProcess()];
    a.at(START + 61_000);
    const fromA = await answersOf(a);
    b.at(START + 83_000);
    const fromB = await answersOf(b);
    expect(fromB).toEqual(fromA);
    expect(fromA.map(({ status }) => status)).toEqual(paths.map(() => 200));
    // Nothing newer than the minute: the instant is the minute's start.
    const instant = START + 60_000;
    expect(JSON.parse(fromA[0]!.body)).toMatchObject({ timestamp: instant / 1000 });
    expectRebuildsAnswer(fromA[0]!.body, instant);
    // A reader sent to the other process keeps its copy.
    for (const { path, etag } of fromA) expect((await b.get(path, etag)).status).toBe(304);
  });

  it('after a check mid-minute: the same answers, at an instant no check is after, as a rebuild gives', async () => {
    const [a, b] = [await apiProcess(), await apiProcess()];
    a.at(START + 62_000);
    b.at(START + 63_000);
    const before = await answersOf(a); // both processes hold the minute's answers before the check
    await answersOf(b);
    const checkAtMs = START + 64_321;
    env.setNow(checkAtMs + 500);
    await checkAt(2, checkAtMs, 'down', 900);
    await env.project();
    a.at(START + 70_000);
    b.at(START + 95_000);
    // The first read after the change answers the cached body while one read refreshes it.
    for (const api of [a, b])
      for (const { path, body } of before)
        for (let tries = 0; tries < 500 && (await api.get(path)).body === body; tries += 1)
          await new Promise((resolve) => setImmediate(resolve));
    const fromA = await answersOf(a);
    const fromB = await answersOf(b);
    expect(fromB).toEqual(fromA);
    const charts = JSON.parse(fromA[0]!.body) as {
      timestamp: number;
      monitors: { minute_data: unknown[] }[];
    };
    expect(charts.timestamp).toBe(Math.floor(checkAtMs / 1000)); // it counts the check: never before it
    expectRebuildsAnswer(fromA[0]!.body, checkAtMs);

    // A clean rebuild, read by a third process in the same minute: byte for byte the same.
    await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    const fresh = buildApp({
      redis: env.redis,
      prefix: env.prefix,
      config: config(),
      log,
      clock: () => new Date(START + 99_000),
    });
    for (const { path, body, etag } of fromA) {
      const res = await request(fresh).get(path).buffer(true);
      expect({ path, body: res.text, etag: res.headers['etag'] }).toEqual({ path, body, etag });
    }
  });
  it('answers a page with a check dated ahead of the clock at that check, counting nothing later', async () => {
    const [a, b] = [await apiProcess(), await apiProcess()];
    env.setNow(START + 130_000); // 11:02:10; an agent whose clock runs ahead dates its check 11:04:00.5
    const ahead = START + 240_500;
    await checkAt(1, ahead, 'degraded', 300);
    await env.project();
    a.at(START + 131_000);
    b.at(START + 150_000);
    const fromA = await answersOf(a);
    expect(await answersOf(b)).toEqual(fromA);
    expect(JSON.parse(fromA[0]!.body)).toMatchObject({ timestamp: Math.floor(ahead / 1000) });
    expectRebuildsAnswer(fromA[0]!.body, ahead);
  });
});
