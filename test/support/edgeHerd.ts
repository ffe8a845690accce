// What the edge tests and the bench put behind Varnish: the public API as `npm run serve` runs it
// (response cache and memo on one subscriber), counting the requests that reach it per URL, and a
// herd of keep-alive connections cycling over every public endpoint of a page.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { statuspageDocuments } from '../../projections/statuspage/documents.ts';
import { buildPublicHandler } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createReadCache } from '../../src/http/readCache.ts';
import { createResponseMemo } from '../../src/http/responseMemo.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { createSubscriber } from '../../src/store/subscriber.ts';
import { SCRIPT_PATH } from '../../src/statusPage/pageDocument.ts';
import { elevenApiPaths } from './apiPaths.ts';

/** Every public GET of page `slug` (monitor `monitorId`), and the page-independent assets. */
export const pagePaths = (slug: string, monitorId: number): string[] => [
  ...elevenApiPaths(slug, monitorId, { period: '7d' }),
  `/api/embed/status?slug=${slug}&inc=1&rtm=60&upd=7`,
  `/badge/${slug}.svg`,
  `/s/${slug}`,
  `/s/${slug}/feed.atom`,
  `/s/${slug}/feed.rss`,
  ...statuspageDocuments.map((document) => `/s/${slug}/api/v2/${document}.json`),
];
export const assetPaths = ['/static/embed/v1/status.js', SCRIPT_PATH];

export type CountingOrigin = Readonly<{
  port: number;
  /** Requests that reached the origin, by URL (the health probe left out). */
  hits: Map<string, number>;
  /** Stops listening and drops open connections: the origin is gone. */
  stop: () => Promise<void>;
}>;

export const startCountingOrigin = async (
  redis: RedisClient,
  prefix: string,
  urls: { baseUrl: string; pageUrlTemplate: string },
): Promise<CountingOrigin> => {
  const log = pino({ level: 'silent' });
  const subscriber = createSubscriber(redis.duplicate(), `${prefix}:api`, log);
  const cache = createReadCache(subscriber, prefix, { ttlMs: 1_000, maxBytes: 32 * 1024 * 1024 });
  const memo = createResponseMemo(cache, { maxBytes: 32 * 1024 * 1024 });
  await subscriber.ready();
  const config = loadConfig({ PUBLIC_BASE_URL: urls.baseUrl, PAGE_URL_TEMPLATE: urls.pageUrlTemplate });
  const handler = buildPublicHandler({ redis, prefix, config, log, subscriber, cache, memo });
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url !== '/healthz') hits.set(url, (hits.get(url) ?? 0) + 1);
    handler(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    stop: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
      cache.close();
      await subscriber.close();
    },
  };
};

type HerdResult = Readonly<{ requests: number; ok: number; other: number; errors: number }>;

/** `connections` keep-alive connections, each cycling over `paths`, for `seconds`. */
export const herd = (baseUrl: string, paths: readonly string[], connections: number, seconds: number) =>
  new Promise<HerdResult>((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections,
        duration: seconds,
        requests: paths.map((path) => ({ method: 'GET' as const, path })),
        timeout: 30,
      },
      (error, result) => {
        if (error) reject(error as Error);
        else
          resolve({
            requests: result.requests.total,
            ok: result['2xx'],
            other: result['non2xx'],
            errors: result.errors,
          });
      },
    );
  });
