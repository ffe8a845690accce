// The memo of whole answers in front of the public app (src/http/responseMemo.ts): an answer it
// gives again is the app's answer, byte for byte and header for header, for every endpoint and
// every kind of page; it remembers only public pages' answers; requests it cannot answer alike
// (If-Modified-Since) go to the routes; and its hits are counted and logged as the routes' are.
//
//   acme    growth, public, status.acme.test, monitor 11 up
//   vault   business, private (auth token), status.vault.test
//   shut    growth, blocked
//   cheap   free plan (lists and charts, no embeds)
import type { IncomingMessage, RequestListener } from 'node:http';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildPublicHandler } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createReadPath, type ReadPath } from '../../src/http/readPath.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { elevenApiPaths } from '../support/apiPaths.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const N = '2026-11-22T12:00:30Z';
const TOKEN = 'vault-token-0123456789abcdef';
const API_HOST = 'api.status.test';

type Request = Readonly<{ host: string; path: string; headers?: Record<string, string>; head?: boolean }>;

const PUBLIC_PATHS = [
  ...elevenApiPaths('acme', 11),
  ...elevenApiPaths('acme', 11, { embedQuery: '&inc=1&rtm=240&upd=30', period: '30d' }),
  '/api/status-pages/acme/incidents?page=1&page_size=5',
  '/badge/acme.svg',
  '/s/acme',
  // Each language is its own answer and its own entry, counted like any other.
  '/s/acme?lang=de',
  '/s/acme?lang=ja',
  '/badge/acme.svg?lang=fr',
  '/s/acme/feed.atom',
  '/s/acme/feed.rss',
  '/s/acme/api/v2/summary.json',
];
const OTHER_PATHS = [
  ...elevenApiPaths('vault', 1),
  ...elevenApiPaths('vault', 1).map((path) => `${path}${path.includes('?') ? '&' : '?'}auth_token=${TOKEN}`),
  '/s/vault',
  `/s/vault?auth_token=${TOKEN}`,
  ...elevenApiPaths('shut', 1),
  ...elevenApiPaths('cheap', 1),
  '/badge/cheap.svg',
  '/api/status-pages/acme/incidents?page=0',
  '/api/status-pages/acme/incidents/filter?month=2026-13',
  '/api/embed/status?slug=acme&rtm=9999',
  '/api/embed/status',
  '/s/nobody',
  '/s/acme?lang=xx',
  '/badge/acme.svg?lang=pt-br',
];
const REQUESTS: Request[] = [
  ...PUBLIC_PATHS.map((path) => ({ host: API_HOST, path })),
  // Custom domains: the same raw path at another host is another answer.
  ...['/', '/feed.atom', '/api/v2/summary.json'].map((path) => ({ host: 'status.acme.test', path })),
  { host: API_HOST, path: '/api/status/acme/charts', head: true },
  ...OTHER_PATHS.map((path) => ({ host: API_HOST, path })),
  ...['/', `/?auth_token=${TOKEN}`].map((path) => ({ host: 'status.vault.test', path })),
  { host: API_HOST, path: '/' },
  // The feeds' other conditional form is the routes' to answer.
  {
    host: API_HOST,
    path: '/s/acme/feed.atom',
    headers: { 'If-Modified-Since': 'Tue, 01 Jan 2030 00:00:00 GMT' },
  },
];
const keyOf = (req: Request) => `${req.host}${req.path}`;

// Headers that differ between any two answers of a server, memo or not.
// The edge lifetime counts down to the next minute: the memo's copy may be a second older.
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'surrogate-control', 'cdn-cache-control']);

const answerOf = async (handler: RequestListener, req: Request) => {
  let test = (req.head ? request(handler).head(req.path) : request(handler).get(req.path)).set(
    'Host',
    req.host,
  );
  for (const [name, value] of Object.entries(req.headers ?? {})) test = test.set(name, value);
  const res = await test.buffer(true).parse((raw, done) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => done(null, Buffer.concat(chunks).toString('latin1')));
  });
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VOLATILE.has(name)));
  // Names as sent (case included; their order is free in HTTP).
  const raw = (res as unknown as { res: IncomingMessage }).res.rawHeaders;
  const names = raw.filter((name, i) => i % 2 === 0 && !VOLATILE.has(name.toLowerCase()));
  return { status: res.status, headers, names: names.sort(), body: res.body as string };
};

describe('the memo of whole answers', () => {
  let env: ProjectorEnv;
  let readPath: ReadPath;
  let plain: RequestListener;
  let memoized: RequestListener;
  const registry = new Registry();
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    await env.append(
      pageConfigured('acme', { title: 'Acme', custom_domain: 'status.acme.test' }),
      monitorConfigured('acme', 11, { name: 'API' }),
      check('acme', 11, '2026-11-22T12:00:00Z', 'up', 120),
      pageConfigured('vault', { plan: 'business', auth_token: TOKEN, custom_domain: 'status.vault.test' }),
      monitorConfigured('vault', 1),
      check('vault', 1, '2026-11-22T12:00:00Z', 'up', 90),
      pageConfigured('shut', { blocked: true }),
      pageConfigured('cheap', { plan: 'free' }),
    );
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    // A TTL far beyond the test: only the memo's own rules decide what it answers.
    readPath = createReadPath({ redis: env.redis, prefix: env.prefix, log }, { READ_CACHE_TTL_MS: '60000' });
    await readPath.subscriber.ready();
    const silent = pino({ level: 'silent' });
    plain = buildApp({ redis: env.redis, prefix: env.prefix, clock: env.now, config, log: silent });
    memoized = buildPublicHandler({
      redis: env.redis,
      prefix: env.prefix,
      clock: env.now,
      config,
      log,
      registry,
      subscriber: readPath.subscriber,
      requestLog: { lines: 'all', slowMs: 0 },
      cache: readPath.cache!,
      memo: readPath.memo!,
    });
  });
  afterAll(async () => {
    await readPath.close();
    await env.close();
  });

  it('gives again exactly the answer the app gives, for every endpoint and kind of page', async () => {
    const memo = readPath.memo!;
    const remembered = new Set<string>();
    let expectedHits = 0;
    let privateAnswers = 0;
    for (const req of REQUESTS) {
      const expected = await answerOf(plain, req);
      const label = `${req.host}${req.path}`;
      const cacheControl = expected.headers['cache-control'];
      if (expected.status === 200 && cacheControl === 'private, no-store') privateAnswers += 1;
      const isPublic = expected.status === 200 && cacheControl !== 'private, no-store';
      // The first answer fills the cache and is remembered; the next ones come from the memo.
      for (let round = 0; round < 3; round += 1)
        expect(await answerOf(memoized, req), label).toEqual(expected);
      if (isPublic) expectedHits += remembered.has(keyOf(req)) ? 3 : 2;
      if (isPublic) remembered.add(keyOf(req));
      const etag = expected.headers['etag'];
      if (expected.status === 200 && typeof etag === 'string') {
        const conditional = { ...req, headers: { 'If-None-Match': `"other", W/${etag}` } };
        const notModified = await answerOf(plain, conditional);
        expect(notModified.status, label).toBe(304);
        for (let round = 0; round < 2; round += 1)
          expect(await answerOf(memoized, conditional), label).toEqual(notModified);
        if (isPublic) expectedHits += 2; // a private page's 304 comes from the routes
      }
    }
    // Remembered: each public answer once (the GET and the HEAD of charts share one); nothing else,
    // not even the private page's 200s to its token.
    // The eleven endpoints with the token, and the page's shell (it asks for the token) by slug and
    // at the domain, with and without it.
    expect(privateAnswers).toBe(15);
    expect(memo.stats()).toMatchObject({ stored: remembered.size, hits: expectedHits });
  });

  it('counts and logs an answer from the memo as the route it stands for', async () => {
    const path = '/badge/acme.svg';
    await answerOf(memoized, { host: API_HOST, path }); // remembered by now (or at this request)
    const hits = readPath.memo!.stats().hits;
    const counted = async () =>
      (await registry.getSingleMetric('http_requests_total')!.get()).values.find(
        (value) => value.labels['route'] === '/badge/:file' && value.labels['status'] === '200',
      )?.value ?? 0;
    const before = await counted();
    lines.length = 0;
    for (let i = 0; i < 3; i += 1) await answerOf(memoized, { host: API_HOST, path });
    expect(readPath.memo!.stats().hits - hits).toBe(3);
    expect(await counted()).toBe(before + 3);
    const logged = lines.filter((line) => line['msg'] === 'request');
    expect(logged.map(({ method, route, path: p, status }) => ({ method, route, path: p, status }))).toEqual(
      Array.from({ length: 3 }, () => ({ method: 'GET', route: '/badge/:file', path, status: 200 })),
    );
  });

  it('keys answers on what the route validated: a flood of random URLs adds no entry and no read', async () => {
    const memo = readPath.memo!;
    const cache = readPath.cache!;
    const base = ['/api/status-pages/acme/incidents', '/api/embed/status?slug=acme', '/badge/acme.svg'];
    for (const path of base) await answerOf(memoized, { host: API_HOST, path }); // remembered
    const before = { memo: memo.stats(), cache: cache.stats() };
    const flood = (i: number) => [
      `/api/status-pages/acme/incidents?x${i}=${'r'.repeat(i)}&auth_token=guess${i}`,
      `/api/embed/status?utm=${i}&slug=acme`,
      `/badge/acme.svg?cache-buster=${i}`,
      `/api/status-pages/acme/incidents?page=${1_000_000 + i}`,
      `/api/status-pages/acme/maintenances/filter?month=${1200 + i}-01`,
      `/api/status-pages/acme/incidents/daily-counts?month=${9000 + i}-12`,
    ];
    for (let i = 0; i < 20; i += 1)
      for (const path of flood(i))
        expect(await answerOf(memoized, { host: API_HOST, path }), path).toEqual(
          await answerOf(plain, { host: API_HOST, path }),
        );
    const after = { memo: memo.stats(), cache: cache.stats() };
    expect(after.memo.answers).toBe(before.memo.answers);
    expect(after.memo.hits - before.memo.hits).toBe(60); // the three random-parameter forms
    // One entry: the maintenances' access document, for its months outside the log (the incidents'
    // came with an invalid month above; the past-the-end pages use the cached first page's total).
    expect(after.cache.entries).toBe(before.cache.entries + 1);
    expect((await answerOf(memoized, { host: API_HOST, path: flood(3)[3]! })).body).toBe(
      '{"incidents":[],"page":1000003,"page_size":20,"total_pages":0,"total_items":0}',
    );
  });
});
