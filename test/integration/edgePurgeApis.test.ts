// The edge purger against local stand-ins of Fastly's and Cloudflare's purge APIs
// (test/support/edgeApis.ts checks every call against the vendors' documented shapes): soft purge
// by key, the per-call key limits, auth headers, coalescing of a flapping page, and failures
// retried with backoff and counted on /metrics.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createEdgePurger, type EdgePurger } from '../../src/edge/edgePurger.ts';
import { purgeTargets } from '../../src/edge/providers.ts';
import { startCloudflareStandIn, startFastlyStandIn } from '../support/edgeApis.ts';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitFor = async (what: string, done: () => boolean | Promise<boolean>) => {
  for (let tries = 0; !(await done()); tries += 1) {
    if (tries > 400) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
};

/** The value of a counter's child on the registry `/metrics` serves. */
const counter = async (registry: Registry, name: string, provider: string): Promise<number> => {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => v.labels['provider'] === provider)?.value ?? 0;
};

const keys = (count: number, prefix = 'page-p') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('purging Fastly and Cloudflare', () => {
  let fastly: Awaited<ReturnType<typeof startFastlyStandIn>>;
  let cloudflare: Awaited<ReturnType<typeof startCloudflareStandIn>>;
  let registry: Registry;
  let purger: EdgePurger;

  beforeAll(async () => {
    fastly = await startFastlyStandIn('SU1Z0isxPaozGVKXdv0eY', 'fastly-token-0123456789');
    cloudflare = await startCloudflareStandIn('023e105f4ecef8ad9ca31a8372d0c353', 'cloudflare-token-0123');
  });
  afterAll(async () => {
    await fastly.close();
    await cloudflare.close();
  });

  const start = (env: Record<string, string>, options: { coalesceMs?: number } = {}) => {
    const config = loadConfig({
      EDGE_PURGE: 'fastly,cloudflare',
      FASTLY_SERVICE_ID: 'SU1Z0isxPaozGVKXdv0eY',
      FASTLY_API_TOKEN: 'fastly-token-0123456789',
      FASTLY_API_URL: fastly.url,
      CLOUDFLARE_ZONE_ID: '023e105f4ecef8ad9ca31a8372d0c353',
      CLOUDFLARE_API_TOKEN: 'cloudflare-token-0123',
      CLOUDFLARE_API_URL: cloudflare.url,
      ...env,
    });
    fastly.calls.length = 0;
    cloudflare.calls.length = 0;
    registry = new Registry();
    purger = createEdgePurger(purgeTargets(config.edge), {
      registry,
      log,
      firstRetryMs: 40,
      maxRetryMs: 200,
      ...options,
    });
  };
  afterEach(async () => {
    await purger.close();
  });

  it('soft-purges by key within each API documented limit per call, with the documented auth', async () => {
    start({});
    purger.purge(keys(300));
    await waitFor('every key purged', () => purger.pending() === 0);
    expect(fastly.calls.map((c) => [c.keys.length, c.soft, c.bad])).toEqual([
      [256, true, null],
      [44, true, null],
    ]);
    expect(cloudflare.calls.map((c) => [c.keys.length, c.bad])).toEqual([
      [100, null],
      [100, null],
      [100, null],
    ]);
    expect(new Set(fastly.calls.flatMap((c) => c.keys))).toEqual(new Set(keys(300)));
    expect(new Set(cloudflare.calls.flatMap((c) => c.keys))).toEqual(new Set(keys(300)));
    expect(await counter(registry, 'edge_purges_total', 'fastly')).toBe(2);
    expect(await counter(registry, 'edge_purges_total', 'cloudflare')).toBe(3);
    expect(await counter(registry, 'edge_purge_keys_total', 'fastly')).toBe(300);
    expect(await counter(registry, 'edge_purge_failures_total', 'fastly')).toBe(0);
  });

  it('purges hard (no Fastly-Soft-Purge) what a page event may have made private', async () => {
    start({});
    purger.purge(['page-gone'], true);
    purger.purge(['page-other-checks']);
    await waitFor('both keys purged', () => purger.pending() === 0);
    expect(fastly.calls.map((c) => [c.keys, c.soft])).toEqual([
      [['page-gone'], false],
      [['page-other-checks'], true],
    ]);
  });

  it('coalesces a page that changes 50 times a second into a few purges', async () => {
    start({});
    for (let i = 0; i < 50; i += 1) {
      purger.purge(['page-flappy-checks']);
      await sleep(20);
    }
    await waitFor('the last change purged', () => purger.pending() === 0);
    const calls = fastly.calls.length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(12); // about one per coalescing window, never one per change
    expect(fastly.calls.every((c) => c.keys.join() === 'page-flappy-checks' && c.bad === null)).toBe(true);
  });

  it('retries failed purges with backoff until the API accepts them, counting each failure', async () => {
    start({});
    fastly.failNext(3, 503, '{"msg":"Service Unavailable"}');
    cloudflare.failNext(
      1,
      429,
      JSON.stringify({ success: false, errors: [{ code: 971, message: 'Please wait' }], messages: [] }),
    );
    cloudflare.failNext(
      1,
      200,
      JSON.stringify({ success: false, errors: [{ code: 1134, message: 'Failed' }], messages: [] }),
    );
    purger.purge(['page-a', 'page-b-checks']);
    await waitFor('both APIs accepted the purge', () => purger.pending() === 0);
    expect(fastly.calls.map((c) => c.keys)).toEqual(Array(4).fill(['page-a', 'page-b-checks']));
    expect(cloudflare.calls.map((c) => c.keys)).toEqual(Array(3).fill(['page-a', 'page-b-checks']));
    expect(await counter(registry, 'edge_purge_failures_total', 'fastly')).toBe(3);
    expect(await counter(registry, 'edge_purge_failures_total', 'cloudflare')).toBe(2);
    expect(await counter(registry, 'edge_purges_total', 'fastly')).toBe(1);
    const text = await registry.metrics();
    expect(text).toContain('edge_purge_failures_total{provider="fastly"} 3');
    expect(text).toContain('edge_purge_seconds_count{provider="cloudflare"} 1');
  });

  it('keeps retrying a rejected token, never dropping the keys', async () => {
    start({ FASTLY_API_TOKEN: 'a-wrong-token-0123', EDGE_PURGE: 'fastly' });
    purger.purge(['page-a']);
    // The stand-in records a call when it arrives; the purger counts the refusal when it has read
    // the answer: wait for both.
    await waitFor(
      'three refused attempts, counted',
      async () =>
        fastly.calls.length >= 3 && (await counter(registry, 'edge_purge_failures_total', 'fastly')) >= 3,
    );
    expect(fastly.calls.every((c) => c.bad === 'unauthorized' && c.keys.join() === 'page-a')).toBe(true);
    expect(purger.pending()).toBe(1);
  });
});
